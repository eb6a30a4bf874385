import Courier
import CourierTransportCore
import Foundation
import HTTPTypes

/// Age and freshness of a stored response (RFC 9111 §4.2) as a private cache computes them.
struct CacheFreshness: Sendable {
    /// The response's `Cache-Control`.
    let directives: CacheControl
    /// How long it is fresh from its generation, in seconds.
    let lifetime: Double
    /// Its age now, in seconds.
    let age: Double

    /// Status codes cacheable by default, which may get heuristic freshness (RFC 9110 §15.1).
    static let heuristicStatuses: Set<Int> = [200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501]

    /// The freshness of `entry` at `now`.
    init(_ entry: CachedResponse, now: Date) {
        directives = CacheControl(entry.fields.filter { CachedResponse.equalsIgnoringASCIICase($0.name, "cache-control") }.map(\.value))
        lifetime = Self.lifetime(entry, directives)
        age = Self.age(entry, now: now)
    }

    /// Whether it is still fresh.
    var isFresh: Bool { age < lifetime }
    /// Seconds past its lifetime (0 when fresh).
    var staleness: Double { max(0, age - lifetime) }

    /// §4.2.1: max-age, else Expires − Date, else heuristic (10% of the time since Last-Modified).
    static func lifetime(_ entry: CachedResponse, _ directives: CacheControl) -> Double {
        if let maxAge = directives.maxAge { return maxAge }
        let date = entry.value(.date).flatMap(HTTPDate.parse) ?? entry.responseTime
        if let expires = entry.value(.expires) {
            // An invalid Expires (including "0") means already expired.
            guard let instant = HTTPDate.parse(expires) else { return 0 }
            return max(0, instant.timeIntervalSince(date))
        }
        guard heuristicStatuses.contains(entry.status) || directives.isPublic,
            let lastModified = entry.value(.lastModified).flatMap(HTTPDate.parse)
        else { return 0 }
        return max(0, date.timeIntervalSince(lastModified) / 10)
    }

    /// §4.2.3: the corrected initial age plus the time spent in the cache.
    static func age(_ entry: CachedResponse, now: Date) -> Double {
        let ageValue = entry.value(.age).flatMap(parseAge) ?? 0
        let dateValue = entry.value(.date).flatMap(HTTPDate.parse) ?? entry.responseTime
        let apparent = max(0, entry.responseTime.timeIntervalSince(dateValue))
        let delay = max(0, entry.responseTime.timeIntervalSince(entry.requestTime))
        let initial = max(apparent, ageValue + delay)
        return initial + max(0, now.timeIntervalSince(entry.responseTime))
    }

    /// An `Age` value: delta-seconds (the first of a list); anything else is ignored.
    static func parseAge(_ text: String) -> Double? {
        let first = text.split(separator: ",", omittingEmptySubsequences: false).first?.trimmingCharacters(in: .whitespaces) ?? ""
        guard !first.isEmpty, first.allSatisfy(\.isASCIIDigitCharacter) else { return nil }
        return WireNumber.deltaSeconds(first).map(Double.init)
    }
}
