/// Calls and failures over a sliding window, kept in a fixed number of buckets (resilience4j's
/// time-based window): memory per origin is constant however many calls go through.
struct HealthWindow: Sendable {
    private struct Bucket: Sendable {
        var index: Int64 = .min
        var calls = 0
        var failures = 0
    }

    private let bucketMs: Int64
    private var buckets: [Bucket]

    /// A window `windowMs` long in `count` buckets.
    init(windowMs: Int64, count: Int) {
        let count = max(1, count)
        bucketMs = max(1, windowMs / Int64(count))
        buckets = Array(repeating: Bucket(), count: count)
    }

    /// Counts a call that ended at `nowMs`.
    mutating func record(failure: Bool, nowMs: Int64) {
        let index = nowMs / bucketMs
        let slot = Int(index % Int64(buckets.count))
        if buckets[slot].index != index { buckets[slot] = Bucket(index: index) }
        buckets[slot].calls += 1
        if failure { buckets[slot].failures += 1 }
    }

    /// Calls and failures in the window that ends at `nowMs`.
    func totals(nowMs: Int64) -> (calls: Int, failures: Int) {
        let newest = nowMs / bucketMs
        let oldest = newest - Int64(buckets.count) + 1
        var calls = 0
        var failures = 0
        for bucket in buckets where bucket.index >= oldest && bucket.index <= newest {
            calls += bucket.calls
            failures += bucket.failures
        }
        return (calls, failures)
    }

    /// Forgets every call.
    mutating func clear() {
        for slot in buckets.indices { buckets[slot] = Bucket() }
    }
}
