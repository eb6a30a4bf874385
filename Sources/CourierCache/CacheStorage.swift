import Courier
import CourierTransportCore
public import Foundation

/// Where a ``CacheMiddleware`` keeps responses: per primary key (the absolute URL), the stored
/// variants (responses that differ by their `Vary` fields).
///
/// Implementations bound their size themselves and must be safe to call from many tasks at
/// once. A store that cannot read an entry (corrupt, truncated) answers as if it had none.
public protocol CacheStorage: Sendable {
    /// The variants stored for `key`, most recent first; empty when there are none.
    func variants(for key: String) -> [CachedResponse]
    /// Replaces the variants stored for `key` (an empty list removes the key).
    func store(_ variants: [CachedResponse], for key: String)
    /// Forgets `key`.
    func remove(_ key: String)
    /// Forgets everything.
    func removeAll()
    /// The secret that keys stored answers to requests with credentials (an HMAC of them, never
    /// the values). A store shared by processes shares its key; by default one random key per
    /// process.
    var credentialKey: Data { get }
}

extension CacheStorage {
    public var credentialKey: Data { CacheCredentials.processKey }
}
