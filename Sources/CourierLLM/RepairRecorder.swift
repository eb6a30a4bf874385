/// The repairs a parse applied, each kind once, in the order first applied: what
/// ``TolerantParser`` records, and ``StreamingParser`` records at the same decisions.
struct RepairRecorder {
    private(set) var repairs: [Repair] = []
    private var seen: Set<Repair> = []
    private var seenFlags: UInt64 = 0

    @inline(__always)
    mutating func note(_ repair: Repair) {
        if let bit = repair.flag {
            guard seenFlags & bit == 0 else { return }
            seenFlags |= bit
            repairs.append(repair)
        } else if seen.insert(repair).inserted {
            repairs.append(repair)
        }
    }

    /// Notes `others` in their order (the repairs of a parse that continued this one).
    mutating func note(contentsOf others: [Repair]) {
        for repair in others { note(repair) }
    }
}
