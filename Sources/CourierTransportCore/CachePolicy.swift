/// How one call uses the cache, chosen per call through ``CallTraits/cachePolicy``.
///
/// ```swift
/// var traits: CallTraits { CallTraits(cachePolicy: .preferCache) }   // offline reading
/// ```
public enum CachePolicy: Sendable, Equatable {
    /// RFC 9111: fresh responses are reused, stale ones validated, request directives honoured.
    case standard
    /// Offline first: as ``standard``, and when the network fails (refused, timed out, a 5xx)
    /// any stored response is served, however stale, even one marked `must-revalidate`.
    case preferCache
    /// Ignore what is stored and fetch from the origin; the new response is stored.
    case reload
    /// Offline reading: only what is stored. Any stored response is served, however stale (even
    /// one marked `no-cache` or `must-revalidate`); nothing is sent to the network, and a call
    /// with nothing stored is answered `504 Gateway Timeout`, as `only-if-cached` is.
    case offline
}
