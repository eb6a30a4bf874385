/// The stand-in's state: knobs, counters and the data set they select.
actor SeoulLedger {
    private(set) var knobs = SeoulKnobs()
    private(set) var stats = SeoulStats()
    /// Made on the first Seoul request, not when the sandbox starts: every test suite starts
    /// sandboxes, and generating the rows there would delay them all.
    private var chosen: SeoulDataset?
    var dataset: SeoulDataset {
        if let chosen { return chosen }
        let made =
            knobs.rows == SeoulDataset.defaultCount && !knobs.hostile
            ? SeoulDataset.shared : SeoulDataset(count: knobs.rows, hostile: knobs.hostile)
        chosen = made
        return made
    }
    private var failuresLeft = Int.max

    func set(_ new: SeoulKnobs) {
        if new.rows != knobs.rows || new.hostile != knobs.hostile { chosen = nil }
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
