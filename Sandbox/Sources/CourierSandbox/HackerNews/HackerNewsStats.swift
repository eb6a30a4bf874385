/// What `GET /hn/stats` answers: how the Hacker News stand-in's item calls were served.
///
/// ```swift
/// let stats = try await client.request(TestEndpoint(baseURL: sandbox.baseURL, path: "/hn/stats"), as: HackerNewsStats.self)
/// #expect(stats.maxInFlight <= 8)
/// ```
public struct HackerNewsStats: Codable, Sendable, Equatable {
    /// `item/{id}.json` requests since the last reset.
    public var itemRequests: Int
    /// Item requests being answered now.
    public var inFlight: Int
    /// The most item requests answered at once.
    public var maxInFlight: Int
    /// Item requests whose client went away while they waited for the latency.
    public var disconnects: Int
    /// The latency each item call waits before it answers, in milliseconds.
    public var latencyMs: Int
    /// Whether delayed item calls keep their connection open (as the real API does) instead of
    /// watching for the client to leave (which closes each connection after its answer).
    public var keepAlive: Bool

    /// A snapshot.
    public init(itemRequests: Int = 0, inFlight: Int = 0, maxInFlight: Int = 0, disconnects: Int = 0, latencyMs: Int = 0, keepAlive: Bool = false) {
        self.itemRequests = itemRequests
        self.inFlight = inFlight
        self.maxInFlight = maxInFlight
        self.disconnects = disconnects
        self.latencyMs = latencyMs
        self.keepAlive = keepAlive
    }
}

/// The stand-in's per-server counters and its latency knob.
actor HackerNewsLedger {
    private var stats = HackerNewsStats()

    var latency: (milliseconds: Int, keepAlive: Bool) { (stats.latencyMs, stats.keepAlive) }

    func setLatency(_ milliseconds: Int?, keepAlive: Bool?) {
        if let milliseconds { stats.latencyMs = milliseconds }
        if let keepAlive { stats.keepAlive = keepAlive }
    }

    func enter() {
        stats.itemRequests += 1
        stats.inFlight += 1
        stats.maxInFlight = max(stats.maxInFlight, stats.inFlight)
    }

    func leave(disconnected: Bool) {
        stats.inFlight -= 1
        if disconnected { stats.disconnects += 1 }
    }

    func snapshot() -> HackerNewsStats { stats }

    /// Zeroes the counters (requests still in flight stay counted, so their end keeps it right).
    func reset() {
        stats = HackerNewsStats(inFlight: stats.inFlight, maxInFlight: stats.inFlight, latencyMs: stats.latencyMs, keepAlive: stats.keepAlive)
    }
}
