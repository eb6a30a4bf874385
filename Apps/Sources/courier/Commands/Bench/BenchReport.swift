import Courier
import Foundation

/// The outcome of a `courier bench` run, shown: one JSON object (`--json`), or a summary for a
/// person (requests per second, latency percentiles and a histogram, statuses, errors by family,
/// what hedging, the breaker and the pacer did).
struct BenchReport: Sendable {
    let tally: BenchTally
    let counts: BenchObserver.Counts
    let wall: Duration
    /// The latencies, sorted (ns).
    let sorted: [Int64]

    init(_ outcome: BenchRun.Outcome, counts: BenchObserver.Counts) {
        self.tally = outcome.tally
        self.counts = counts
        self.wall = outcome.wall
        self.sorted = outcome.tally.samples.sorted()
    }

    /// The percentiles shown, with their JSON names and their labels.
    static let percentiles: [(fraction: Double, key: String, label: String)] = [
        (0.5, "p50", "p50"), (0.9, "p90", "p90"), (0.99, "p99", "p99"), (0.999, "p999", "p99.9"),
    ]

    var wallSeconds: Double { Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18 }
    var requestsPerSecond: Double { wallSeconds > 0 ? Double(tally.requests) / wallSeconds : 0 }
    var pacedMilliseconds: Double { Double(counts.paced.components.seconds) * 1000 + Double(counts.paced.components.attoseconds) / 1e15 }
    /// The slowest call (ms), nil when none ended.
    var slowest: Double? { tally.requests > 0 ? BenchTally.milliseconds(tally.slowest) : nil }

    /// One JSON object, its keys in this order:
    /// `{"requests","succeeded","status","errors","latency_ms":{"p50","p90","p99","p999","max"},"rps","wall_s","hedges":{"sent","won"},"breaker":{"opened","rejected"},"paced_ms"}`;
    /// a latency is null when no call ended.
    var json: String {
        let status = tally.statuses.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }
        let errors = tally.errors.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\"\($0.key.rawValue)\":\($0.value)" }
        var latency = Self.percentiles.map { "\"\($0.key)\":\(Self.number(BenchTally.percentile($0.fraction, of: sorted)))" }
        latency.append("\"max\":\(Self.number(slowest))")
        let fields = [
            "\"requests\":\(tally.requests)", "\"succeeded\":\(tally.succeeded)",
            "\"status\":{\(status.joined(separator: ","))}", "\"errors\":{\(errors.joined(separator: ","))}",
            "\"latency_ms\":{\(latency.joined(separator: ","))}",
            "\"rps\":\(Self.number(requestsPerSecond))", "\"wall_s\":\(Self.number(wallSeconds))",
            "\"hedges\":{\"sent\":\(counts.hedgesSent),\"won\":\(counts.hedgesWon)}",
            "\"breaker\":{\"opened\":\(counts.breakerOpened),\"rejected\":\(counts.breakerRejected)}",
            "\"paced_ms\":\(Self.number(pacedMilliseconds))",
        ]
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// The summary for a person; `target` is the method and the URL (already redacted and
    /// escaped for where it is shown).
    func text(target: String, concurrency: Int, interrupted: Bool) -> String {
        var lines = [interrupted ? "Summary (interrupted: the calls that ended): \(target)" : "Summary: \(target)"]
        lines.append(
            "  Requests:    \(tally.requests) in \(Self.fixed(wallSeconds)) s, at most \(concurrency) in flight — "
                + "\(tally.succeeded) 2xx, \(tally.failedStatuses) other statuses, \(tally.errorCount) errors")
        lines.append("  Requests/s:  \(Self.fixed(requestsPerSecond, 1))")
        lines.append("")
        lines.append("Latency (ms)" + (tally.sampled ? ", from a uniform sample of \(sorted.count) calls:" : ":"))
        for percentile in Self.percentiles {
            lines.append("  " + Self.padded(percentile.label, 6, right: false) + Self.figure(BenchTally.percentile(percentile.fraction, of: sorted)))
        }
        lines.append("  " + Self.padded("max", 6, right: false) + Self.figure(slowest))
        let bars = Self.histogram(sorted)
        if !bars.isEmpty {
            lines.append("")
            lines.append("Histogram (ms, calls up to):")
            let widest = bars.map(\.count).max() ?? 1
            let countWidth = String(widest).count
            for bar in bars {
                let length = widest > 0 ? Int((Double(bar.count) / Double(widest) * 40).rounded(.up)) : 0
                lines.append(
                    "  " + Self.padded(Self.fixed(bar.upper), 10) + " [" + Self.padded(String(bar.count), countWidth) + "] "
                        + String(repeating: "■", count: length))
            }
        }
        lines.append("")
        lines.append("Status:" + (tally.statuses.isEmpty ? " none" : ""))
        for (code, count) in tally.statuses.sorted(by: { $0.key < $1.key }) { lines.append("  \(code)  \(count)") }
        lines.append("Errors by family:" + (tally.errors.isEmpty ? " none" : ""))
        for (family, count) in tally.errors.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            lines.append("  " + Self.padded(family.rawValue, 14, right: false) + "\(count)")
        }
        lines.append("")
        lines.append("Hedges:      sent \(counts.hedgesSent), won \(counts.hedgesWon) (the hedge answered first)")
        lines.append("Breaker:     opened \(counts.breakerOpened), rejected \(counts.breakerRejected) (failed at once, not sent)")
        lines.append("Paced:       \(Self.fixed(pacedMilliseconds, 1)) ms held by the pacer (summed over the calls)")
        return lines.joined(separator: "\n")
    }

    /// Up to `buckets` bars from the fastest to the slowest call, their bounds spaced
    /// logarithmically (latencies spread over orders of magnitude; a linear scale would put all
    /// but the outliers in the first bar): each bar's upper bound (ms) and its calls.
    static func histogram(_ sorted: [Int64], buckets: Int = 10) -> [(upper: Double, count: Int)] {
        guard let first = sorted.first, let last = sorted.last else { return [] }
        let low = Double(max(first, 1000))
        let high = Double(last)
        guard high > low * 1.01 else { return [(BenchTally.milliseconds(last), sorted.count)] }
        var bars: [(upper: Double, count: Int)] = []
        var index = 0
        for bucket in 1...buckets {
            let bound = bucket == buckets ? high : low * pow(high / low, Double(bucket) / Double(buckets))
            var count = 0
            while index < sorted.count, bucket == buckets || Double(sorted[index]) <= bound {
                count += 1
                index += 1
            }
            bars.append((bound / 1_000_000, count))
        }
        return bars
    }

    /// A JSON number with 3 decimals (null for nil, 0 for what is not finite).
    static func number(_ value: Double?) -> String {
        guard let value else { return "null" }
        return value.isFinite ? String(format: "%.3f", value) : "0"
    }

    /// A latency as shown: 3 decimals, right-aligned, or a dash.
    static func figure(_ value: Double?) -> String { padded(value.map { fixed($0) } ?? "-", 10) }

    static func fixed(_ value: Double, _ digits: Int = 3) -> String { String(format: "%.\(digits)f", value.isFinite ? value : 0) }

    static func padded(_ text: String, _ width: Int, right: Bool = true) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return right ? padding + text : text + padding
    }
}
