/// An origin's latest latencies, for a percentile: a ring of the last `window` samples, each kept
/// as the index of a log-scale bucket (8 per power of two of microseconds: within 12.5%), and the
/// count of each bucket — a percentile is one walk over 264 counts, a sample one increment and one
/// decrement. Latencies above 2³² µs (71 minutes) count as that.
struct LatencySketch {
    /// Buckets: 8 sub-buckets for each of 33 powers of two.
    static let buckets = 33 * 8

    private var counts = [UInt16](repeating: 0, count: LatencySketch.buckets)
    private var ring: [UInt16]
    private var next = 0
    /// Samples held (at most the window).
    private(set) var count = 0

    init(window: Int) {
        ring = [UInt16](repeating: 0, count: max(1, window))
    }

    /// Adds a latency, forgetting the oldest when the window is full.
    mutating func add(_ latency: Duration) {
        let bucket = UInt16(Self.bucket(microseconds: latency.microsecondsSaturated))
        if count == ring.count {
            counts[Int(ring[next])] -= 1
        } else {
            count += 1
        }
        ring[next] = bucket
        counts[Int(bucket)] += 1
        next = (next + 1) % ring.count
    }

    /// The latency `fraction` (0…1) of the samples are at or under (the bucket's upper bound); nil
    /// without samples.
    func percentile(_ fraction: Double) -> Duration? {
        guard count > 0 else { return nil }
        let rank = max(1, Int((fraction * Double(count)).rounded(.up)))
        var seen = 0
        for bucket in counts.indices {
            seen += Int(counts[bucket])
            if seen >= rank { return .microseconds(Self.upperBound(bucket)) }
        }
        return .microseconds(Self.upperBound(counts.count - 1))
    }

    /// The bucket of `microseconds`: values under 8 have one each; above, the power of two and the
    /// next three bits.
    static func bucket(microseconds: UInt64) -> Int {
        let value = min(microseconds, 1 << 32)
        guard value >= 8 else { return Int(value) }
        let power = 63 - value.leadingZeroBitCount  // 3…32
        let sub = Int((value >> UInt64(power - 3)) & 7)
        return min(buckets - 1, (power - 2) * 8 + sub)
    }

    /// The largest latency in `bucket`, in microseconds.
    static func upperBound(_ bucket: Int) -> Int64 {
        guard bucket >= 8 else { return Int64(bucket) }
        let power = bucket / 8 + 2
        let sub = Int64(bucket % 8)
        return ((8 + sub + 1) << Int64(power - 3)) - 1
    }
}

extension Duration {
    /// Whole microseconds, 0 for a negative duration, saturating.
    var microsecondsSaturated: UInt64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return 0 }
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000)
        return overflow ? .max : whole &+ UInt64(attoseconds / 1_000_000_000_000)
    }
}
