/// Per-key counts of `/counted/{key}` for ``CountedStats``.
actor CountedLedger {
    private var byKey: [String: CountedStats] = [:]

    /// A request for `key` starts waiting; returns its 1-based hit number.
    func enter(_ key: String) -> Int {
        var stats = byKey[key, default: CountedStats()]
        stats.hits += 1
        stats.inFlight += 1
        stats.maxInFlight = max(stats.maxInFlight, stats.inFlight)
        byKey[key] = stats
        return stats.hits
    }

    /// A request that ``enter(_:)``ed is answered, or its client went away (`disconnected`).
    func leave(_ key: String, disconnected: Bool) {
        var stats = byKey[key, default: CountedStats()]
        stats.inFlight -= 1
        if disconnected { stats.disconnects += 1 }
        byKey[key] = stats
    }

    func stats(_ key: String) -> CountedStats { byKey[key, default: CountedStats()] }

    /// Forgets every key; requests still waiting stay counted in flight, so their end keeps it right.
    func reset() {
        byKey = byKey.compactMapValues { $0.inFlight > 0 ? CountedStats(inFlight: $0.inFlight, maxInFlight: $0.inFlight) : nil }
    }
}
