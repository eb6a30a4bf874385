/// The stand-in's state: knobs, counters and the data set they select.
actor SeoulLedger {
    private(set) var knobs = SeoulKnobs()
    private(set) var stats = SeoulStats()
    private(set) var dataset = SeoulDataset.shared
    private var failuresLeft = Int.max

    func set(_ new: SeoulKnobs) {
        if new.rows != dataset.rows.count {
            dataset = new.rows == SeoulDataset.defaultCount ? .shared : SeoulDataset(count: new.rows)
        }
        knobs = new
        failuresLeft = new.failTimes
    }

    func reset() {
        set(SeoulKnobs())
        stats = SeoulStats(inFlight: stats.inFlight, maxInFlight: stats.inFlight)
    }

    func enter(range: String) {
        stats.requests += 1
        stats.inFlight += 1
        stats.maxInFlight = max(stats.maxInFlight, stats.inFlight)
        stats.ranges.append(range)
    }

    func leave(disconnected: Bool) {
        stats.inFlight -= 1
        if disconnected { stats.disconnects += 1 }
    }

    /// Whether a request starting at `start` must fail now (counts it).
    func shouldFail(start: Int) -> Bool {
        guard knobs.failStart == start, failuresLeft > 0 else { return false }
        failuresLeft -= 1
        stats.injectedFailures += 1
        return true
    }
}
