/// Per-key counts of `/tail/{key}` for ``TailStats``.
actor TailLedger {
    private var byKey: [String: TailStats] = [:]
    /// Bumped by ``reset()``: a request that arrived before a reset is not counted when it ends.
    private var generation = 0

    /// A request for `key`, drawn `slow` or fast, starts waiting; returns its 1-based request
    /// number and the generation to ``leave(_:generation:disconnected:)`` with.
    func enter(_ key: String, slow: Bool) -> (request: Int, generation: Int) {
        var stats = byKey[key, default: TailStats()]
        stats.requests += 1
        if slow { stats.slow += 1 } else { stats.fast += 1 }
        byKey[key] = stats
        return (stats.requests, generation)
    }

    /// A request that ``enter(_:slow:)``ed is answered, or its client went away (`disconnected`).
    func leave(_ key: String, generation: Int, disconnected: Bool) {
        guard generation == self.generation else { return }
        var stats = byKey[key, default: TailStats()]
        if disconnected { stats.disconnected += 1 } else { stats.completed += 1 }
        byKey[key] = stats
    }

    func stats(_ key: String) -> TailStats { byKey[key, default: TailStats()] }

    /// Forgets every key; requests still waiting are not counted when they end.
    func reset() {
        byKey = [:]
        generation += 1
    }
}
