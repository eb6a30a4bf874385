import Foundation

/// Counts requests on the probe routes: how many at once (and the most ever), how many in
/// all, and how many clients went away before their answer was complete.
actor ProbeCounter {
    /// A snapshot, as `/probe/stats` answers it.
    struct Stats: Codable, Sendable {
        var inFlight: Int
        var maxInFlight: Int
        var total: Int
        var disconnects: Int
    }

    private var stats = Stats(inFlight: 0, maxInFlight: 0, total: 0, disconnects: 0)

    func enter() {
        stats.inFlight += 1
        stats.total += 1
        stats.maxInFlight = max(stats.maxInFlight, stats.inFlight)
    }

    func leave() { stats.inFlight -= 1 }

    func disconnected() { stats.disconnects += 1 }

    func snapshot() -> Stats { stats }

    func reset() { stats = Stats(inFlight: stats.inFlight, maxInFlight: stats.inFlight, total: 0, disconnects: 0) }
}
