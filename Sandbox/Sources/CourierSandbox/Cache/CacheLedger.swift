import Foundation

/// Per-key counts of `/cache/{key}` for ``CacheStats``.
actor CacheLedger {
    private var byKey: [String: CacheStats] = [:]
    private var firstSeen: [String: Date] = [:]

    /// When `key` was first asked for (now, for a new key): the fixed point `Last-Modified` counts back from.
    func origin(_ key: String) -> Date {
        if let seen = firstSeen[key] { return seen }
        let now = Date()
        firstSeen[key] = now
        return now
    }

    /// A request for `key` arrived; returns its 1-based number.
    func record(_ key: String, conditional: Bool, notModified: Bool) -> Int {
        var stats = byKey[key, default: CacheStats()]
        stats.hits += 1
        if conditional { stats.conditional += 1 }
        if notModified { stats.notModified += 1 }
        byKey[key] = stats
        return stats.hits
    }

    func stats(_ key: String) -> CacheStats { byKey[key, default: CacheStats()] }
}
