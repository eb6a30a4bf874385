import Foundation

/// Counts requests on the probe routes: how many at once (and the most ever), how many in
/// all, and how many clients went away before their answer was complete.
actor ProbeCounter {
    private var stats = ProbeStats(inFlight: 0, maxInFlight: 0, total: 0, disconnects: 0)

    func enter() {
        stats.inFlight += 1
        stats.total += 1
        stats.maxInFlight = max(stats.maxInFlight, stats.inFlight)
    }

    func leave() { stats.inFlight -= 1 }

    func disconnected() { stats.disconnects += 1 }

    func snapshot() -> ProbeStats { stats }

    func reset() { stats = ProbeStats(inFlight: stats.inFlight, maxInFlight: stats.inFlight, total: 0, disconnects: 0) }
}
