import Courier
import CourierTransportCore
public import Foundation

extension CachedResponse {
    /// Its age at `now` in seconds, as RFC 9111 §4.2.3 computes it (the `Age` a cache serves it with).
    ///
    /// ```swift
    /// let age = entry.age(at: Date())
    /// ```
    public func age(at now: Date) -> Double {
        CacheFreshness.age(self, now: now)
    }

    /// Whether it is fresh at `now`: younger than its freshness lifetime (`max-age`,
    /// `Expires` − `Date`, or 10% of the time since `Last-Modified`).
    ///
    /// ```swift
    /// if let entry = storage.variants(for: key).first, entry.isFresh(at: Date()) { use(entry.body) }
    /// ```
    public func isFresh(at now: Date) -> Bool {
        CacheFreshness(self, now: now).isFresh
    }
}
