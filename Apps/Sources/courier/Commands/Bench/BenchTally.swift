import Courier

/// What the calls of a `courier bench` run ended in: how many, their statuses, their errors by
/// ``NetworkError/Family``, and their latencies.
///
/// Latencies are kept whole up to ``sampleCapacity`` calls, so the percentiles are exact (sorted,
/// nearest rank); past that — a long `--duration` — a uniform sample of that many is kept
/// (reservoir sampling, Algorithm R) and the percentiles are estimates from it (``sampled``),
/// while the count, the slowest call and everything else stay exact. 1,000,000 latencies are 8 MB.
struct BenchTally: Sendable {
    /// Latencies kept at most.
    static let sampleCapacity = 1_000_000

    /// How a call ended.
    enum Outcome: Sendable {
        /// An answer with this status (its body read).
        case status(Int)
        /// A `NetworkError` of this family (a refused connection, an open breaker's refusal …).
        case error(NetworkError.Family)
    }

    /// Calls that ended (answered or failed).
    private(set) var requests = 0
    /// Answers with a 2xx status.
    private(set) var succeeded = 0
    /// Answers by status code.
    private(set) var statuses: [Int: Int] = [:]
    /// Failures by family.
    private(set) var errors: [NetworkError.Family: Int] = [:]
    /// Latencies, in nanoseconds: every call's, or a uniform sample of them (``sampled``).
    private(set) var samples: [Int64] = []
    /// The slowest call, in nanoseconds (exact even when sampled).
    private(set) var slowest: Int64 = 0
    private let capacity: Int

    init(capacity: Int = BenchTally.sampleCapacity) {
        self.capacity = max(1, capacity)
    }

    /// Whether the latencies are a sample (more calls than ``sampleCapacity``).
    var sampled: Bool { requests > samples.count }

    /// Answers whose status is not 2xx.
    var failedStatuses: Int { statuses.reduce(0) { $0 + ((200..<300).contains($1.key) ? 0 : $1.value) } }

    /// Failures of every family.
    var errorCount: Int { errors.values.reduce(0, +) }

    mutating func record(_ outcome: Outcome, latency: Duration) {
        requests += 1
        switch outcome {
        case .status(let code):
            statuses[code, default: 0] += 1
            if (200..<300).contains(code) { succeeded += 1 }
        case .error(let family):
            errors[family, default: 0] += 1
        }
        let nanoseconds = max(0, latency.components.seconds * 1_000_000_000 + latency.components.attoseconds / 1_000_000_000)
        slowest = max(slowest, nanoseconds)
        if samples.count < capacity {
            samples.append(nanoseconds)
        } else {
            // Algorithm R: the n-th latency replaces a kept one with probability capacity / n.
            let slot = Int.random(in: 0..<requests)
            if slot < capacity { samples[slot] = nanoseconds }
        }
    }

    /// The latency below which `fraction` (0…1) of the calls finished, in milliseconds: the
    /// nearest-rank percentile of `sorted` (the samples, sorted); nil when no call ended.
    static func percentile(_ fraction: Double, of sorted: [Int64]) -> Double? {
        guard !sorted.isEmpty else { return nil }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return milliseconds(sorted[min(sorted.count, max(1, rank)) - 1])
    }

    static func milliseconds(_ nanoseconds: Int64) -> Double { Double(nanoseconds) / 1_000_000 }
}
