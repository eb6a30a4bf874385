/// Per-key fixed windows of `/ratelimit/{key}`: counts requests, decides which are over the
/// limit, and keeps ``RateLimitStats``.
actor RateLimitLedger {
    private struct Entry {
        var windowEnd: ContinuousClock.Instant
        var used = 0
        var stats = RateLimitStats()
    }

    private var entries: [String: Entry] = [:]

    /// Counts a request for `key` under `limit` per `window` (a window opens at the first request
    /// after the last one closed); returns whether it is allowed, what is left and until when.
    func take(_ key: String, limit: Int, window: Duration) -> (allowed: Bool, remaining: Int, left: Duration) {
        let now = ContinuousClock.now
        var entry = entries[key] ?? Entry(windowEnd: now)
        if now >= entry.windowEnd {
            entry.windowEnd = now + window
            entry.used = 0
            entry.stats.windows += 1
        }
        entry.used += 1
        entry.stats.requests += 1
        let allowed = entry.used <= limit
        if !allowed { entry.stats.limited += 1 }
        entries[key] = entry
        return (allowed, max(0, limit - entry.used), entry.windowEnd - now)
    }

    func stats(_ key: String) -> RateLimitStats { entries[key]?.stats ?? RateLimitStats() }
}
