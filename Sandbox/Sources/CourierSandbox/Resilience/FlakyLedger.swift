/// Per-key attempts of `/flaky/{key}`: decides which fail, and keeps ``FlakyStats``.
actor FlakyLedger {
    /// When a request for a key fails.
    enum Rule: Sendable {
        /// The key's first `n` requests fail.
        case firstRequests(Int)
        /// Requests within this long of the key's first request fail.
        case window(Duration)
    }

    private struct Entry {
        var firstRequest: ContinuousClock.Instant
        var stats = FlakyStats()
    }

    private var entries: [String: Entry] = [:]

    /// Counts a request for `key` (which carried `traceParent`); returns its 1-based attempt number
    /// and whether it fails under `rule`.
    func attempt(_ key: String, rule: Rule, traceParent: String? = nil) -> (attempt: Int, fails: Bool) {
        let now = ContinuousClock.now
        var entry = entries[key] ?? Entry(firstRequest: now)
        let elapsed = now - entry.firstRequest
        entry.stats.attempts += 1
        entry.stats.attemptTimesMs.append(Int(elapsed / .milliseconds(1)))
        entry.stats.traceParents.append(traceParent ?? "")
        let fails =
            switch rule {
            case .firstRequests(let n): entry.stats.attempts <= n
            case .window(let window): elapsed < window
            }
        if fails { entry.stats.failures += 1 } else { entry.stats.successes += 1 }
        entries[key] = entry
        return (entry.stats.attempts, fails)
    }

    func stats(_ key: String) -> FlakyStats { entries[key]?.stats ?? FlakyStats() }

    func reset() { entries = [:] }
}
