import Courier
import Foundation
import Testing

@testable import courier

/// `courier bench`'s arithmetic: nearest-rank percentiles, the bounded sample, the histogram and
/// the JSON object, without a server.
@Suite("courier bench's report: exact percentiles, a bounded sample, a histogram, the JSON keys")
struct BenchReportTests {
    static func outcome(_ tally: BenchTally, wall: Duration = .seconds(2)) -> BenchRun.Outcome {
        BenchRun.Outcome(tally: tally, sent: tally.requests, wall: wall)
    }

    @Test("latencies 1…100 ms: p50 50, p90 90, p99 99, p99.9 and max 100 (nearest rank, all samples)")
    func percentiles() throws {
        var tally = BenchTally()
        for ms in (1...100).reversed() { tally.record(.status(200), latency: .milliseconds(ms)) }
        let report = BenchReport(Self.outcome(tally), counts: BenchObserver.Counts())
        let object = try #require(try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
        let latency = try #require(object["latency_ms"] as? [String: Double])
        #expect(latency == ["p50": 50, "p90": 90, "p99": 99, "p999": 100, "max": 100])
        #expect(object["rps"] as? Double == 50)
        #expect(!tally.sampled)
    }

    @Test("past its capacity the tally keeps a uniform sample, but counts and the slowest call stay exact")
    func boundedSample() {
        var tally = BenchTally(capacity: 100)
        for index in 1...10_000 { tally.record(index % 10 == 0 ? .error(.transport) : .status(200), latency: .microseconds(index)) }
        #expect(tally.samples.count == 100)
        #expect(tally.sampled)
        #expect(tally.requests == 10_000 && tally.succeeded == 9_000 && tally.errors == [.transport: 1_000])
        #expect(tally.slowest == 10_000_000)
        // A uniform sample of 1…10,000 µs: its median is nowhere near the first 100 kept.
        let median = BenchTally.percentile(0.5, of: tally.samples.sorted()) ?? 0
        #expect(median > 2 && median < 8, "\(median) ms")
    }

    @Test("the histogram covers every call, its bounds rising to the slowest")
    func histogram() {
        let sorted: [Int64] = (1...1000).map { Int64($0) * 10_000 }.sorted()
        let bars = BenchReport.histogram(sorted)
        #expect(bars.count == 10)
        #expect(bars.map(\.count).reduce(0, +) == 1000)
        #expect(bars.map(\.upper) == bars.map(\.upper).sorted())
        #expect(bars.last?.upper == 10)
        #expect(BenchReport.histogram([5_000_000, 5_000_000]).map(\.count) == [2])
        #expect(BenchReport.histogram([]).isEmpty)
    }

    @Test("a run where no call ended: the same keys, latencies null, counts zero")
    func emptyRun() throws {
        let report = BenchReport(Self.outcome(BenchTally(), wall: .zero), counts: BenchObserver.Counts())
        let object = try #require(try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
        #expect(Set(object.keys) == BenchBinaryTests.keys)
        let latency = try #require(object["latency_ms"] as? [String: Any])
        #expect(latency.values.allSatisfy { $0 is NSNull })
        #expect(object["requests"] as? Int == 0 && object["rps"] as? Double == 0)
    }

    @Test("the JSON object's keys come in the documented order, statuses and families sorted")
    func keyOrder() {
        var tally = BenchTally()
        tally.record(.status(503), latency: .milliseconds(2))
        tally.record(.status(200), latency: .milliseconds(1))
        tally.record(.error(.server), latency: .zero)
        var counts = BenchObserver.Counts()
        counts.breakerRejected = 1
        counts.paced = .milliseconds(1500)
        let json = BenchReport(Self.outcome(tally, wall: .seconds(1)), counts: counts).json
        #expect(
            json
                == #"{"requests":3,"succeeded":1,"status":{"200":1,"503":1},"errors":{"server":1},"latency_ms":{"p50":1.000,"p90":2.000,"p99":2.000,"p999":2.000,"max":2.000},"rps":3.000,"wall_s":1.000,"hedges":{"sent":0,"won":0},"breaker":{"opened":0,"rejected":1},"paced_ms":1500.000}"#
        )
    }

    @Test("the progress line: done/total, the rate, errors; fitted to the terminal")
    func progressLine() {
        let progress = BenchRun.Progress(requests: 50, errors: 2, failedStatuses: 0, elapsed: .seconds(2))
        let line = BenchProgress.line(progress, length: .calls(200), columns: 100)
        #expect(line.hasPrefix("[") && line.contains(" 50/200") && line.contains("25.0 req/s") && line.contains("errors 2"))
        #expect(!line.contains("non-2xx"))
        #expect(BenchProgress.line(progress, length: .duration(.seconds(10)), columns: 100).contains("2.0s/10s  50 done"))
        #expect(BenchProgress.line(progress, length: .calls(200), columns: 30).count < 30)
    }
}
