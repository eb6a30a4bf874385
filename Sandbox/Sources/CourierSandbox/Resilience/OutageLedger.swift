/// Per-key outage windows of `/outage/{key}`: places each request before, during or after its
/// key's outage, and keeps ``OutageStats``.
actor OutageLedger {
    /// When a key's outage is, counted from its first request, and what it answers meanwhile.
    struct Window: Sendable {
        var afterMs: Int
        var forMs: Int
        var status: Int
    }

    /// Where a request fell.
    enum Phase: String, Sendable {
        case before, during, after
    }

    private struct Entry {
        var firstRequest: ContinuousClock.Instant
        var window: Window
        var stats = OutageStats()
    }

    private var entries: [String: Entry] = [:]

    /// Counts a request for `key`; the key's first request since the last reset sets its
    /// `window`. Returns the request's 1-based number, its phase and the window in force.
    func arrive(_ key: String, window: Window) -> (request: Int, phase: Phase, window: Window) {
        let now = ContinuousClock.now
        var entry = entries[key] ?? Entry(firstRequest: now, window: window)
        let elapsed = now - entry.firstRequest
        let start = Duration.milliseconds(entry.window.afterMs)
        let end = start + .milliseconds(entry.window.forMs)
        let phase: Phase = elapsed < start ? .before : elapsed < end ? .during : .after
        entry.stats.requests += 1
        switch phase {
        case .before: entry.stats.beforeOutage += 1
        case .during: entry.stats.duringOutage += 1
        case .after:
            entry.stats.afterOutage += 1
            if entry.stats.firstOkAfterOutageMs == nil { entry.stats.firstOkAfterOutageMs = Int((elapsed - end) / .milliseconds(1)) }
        }
        entries[key] = entry
        return (entry.stats.requests, phase, entry.window)
    }

    func stats(_ key: String) -> OutageStats { entries[key]?.stats ?? OutageStats() }

    func reset() { entries = [:] }
}
