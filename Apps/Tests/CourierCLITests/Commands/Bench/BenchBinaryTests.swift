import Courier
import CourierSandbox
import Foundation
import IntegrationTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `courier bench … --json` run as a binary against the sandbox: one JSON object with the
/// documented keys, counts that match what the server saw, errors by family, the rate limit, the
/// breaker and the pacer.
@Suite("courier bench --json: exact counts, statuses, error families, --rate, --breaker, --pace")
struct BenchBinaryTests {
    /// The keys of the JSON object, as documented.
    static let keys: Set<String> = [
        "requests", "succeeded", "status", "errors", "latency_ms", "rps", "wall_s", "hedges", "breaker", "paced_ms",
    ]

    /// `courier bench ARGUMENTS --json`: the exit status, the one JSON object stdout holds (a
    /// test fails if it holds anything else), and stderr.
    static func bench(_ arguments: [String]) async throws -> (status: ChildProcess.Termination, report: [String: Any], errors: String) {
        let (status, output, errors) = try await RequestOutputTests.courier(["bench"] + arguments + ["--json"])
        let text = String(decoding: output, as: UTF8.self)
        #expect(text.hasSuffix("}\n") && text.filter { $0 == "\n" }.count == 1, "one line, one object: \(text)")
        let object = try #require(try JSONSerialization.jsonObject(with: output) as? [String: Any], "not a JSON object: \(text) \(errors)")
        #expect(Set(object.keys) == keys, "\(text)")
        return (status, object, errors)
    }

    static func counts(_ report: [String: Any], _ key: String) -> [String: Int] {
        (report[key] as? [String: Any] ?? [:]).compactMapValues { $0 as? Int }
    }

    static func number(_ report: [String: Any], _ key: String) -> Double {
        (report[key] as? NSNumber)?.doubleValue ?? -1
    }

    static func flakyStats(_ sandbox: RunningSandbox, _ key: String) async throws -> FlakyStats {
        try await NetworkClient().request(sandbox.get("/flaky/\(key)/stats"), as: FlakyStats.self)
    }

    @Test("-n 40 against a 200 route: 40 calls reach the server (no warm-up), all succeeded, percentiles in order")
    func exactCountsOnSuccess() async throws {
        try await withSandbox { sandbox in
            let key = "bench-ok-\(UUID().uuidString.prefix(8))"
            let url = IdempotencyKeyBinaryTests.base(sandbox) + "/flaky/\(key)?failures=0"
            let (status, report, errors) = try await Self.bench(["-n", "40", "-c", "8", url])
            #expect(status == .exited(0), "\(errors)")
            #expect(errors.isEmpty, "no bar or diagnostics when stderr is not a terminal: \(errors)")
            #expect(report["requests"] as? Int == 40)
            #expect(report["succeeded"] as? Int == 40)
            #expect(Self.counts(report, "status") == ["200": 40])
            #expect(Self.counts(report, "errors").isEmpty)
            #expect(try await Self.flakyStats(sandbox, key).attempts == 40, "exactly N calls sent")
            let latency = try #require(report["latency_ms"] as? [String: Any])
            #expect(Set(latency.keys) == ["p50", "p90", "p99", "p999", "max"])
            let values = ["p50", "p90", "p99", "p999", "max"].map { (latency[$0] as? NSNumber)?.doubleValue ?? -1 }
            #expect(values[0] > 0 && values == values.sorted(), "\(latency)")
            #expect(Self.number(report, "wall_s") > 0)
            // rps is requests / wall_s (both printed to 3 decimals: a short run's rounding is a few %).
            #expect(abs(Self.number(report, "rps") * Self.number(report, "wall_s") - 40) < 2, "\(report)")
            #expect(Self.counts(report, "hedges") == ["sent": 0, "won": 0])
            #expect(Self.counts(report, "breaker") == ["opened": 0, "rejected": 0])
            #expect(Self.number(report, "paced_ms") == 0)
        }
    }

    @Test("--hedge 500: the first call's 5 s request is hedged and the hedge wins; the other calls answer at once and are not hedged")
    func hedged() async throws {
        try await withSandbox { sandbox in
            let key = "bench-hedge-\(UUID().uuidString.prefix(8))"
            let url = IdempotencyKeyBinaryTests.base(sandbox) + "/counted/\(key)?delayMs=5000&slowHits=1"
            let (status, report, errors) = try await Self.bench(["-n", "6", "-c", "1", "--hedge", "500", url])
            #expect(status == .exited(0), "\(errors)")
            #expect(report["requests"] as? Int == 6 && report["succeeded"] as? Int == 6, "\(report)")
            #expect(Self.counts(report, "hedges") == ["sent": 1, "won": 1], "\(report)")
            let latency = try #require(report["latency_ms"] as? [String: Any])
            #expect(((latency["max"] as? NSNumber)?.doubleValue ?? .infinity) < 4000, "the hedge answered, not the 5 s request: \(latency)")
            let stats = try await NetworkClient().request(sandbox.get("/counted/\(key)/stats"), as: CountedStats.self)
            #expect(stats.hits == 7, "6 calls and 1 hedge reached the server: \(stats)")
        }
    }

    @Test("an error status is counted under its code, not as an error; a refused connection under errors.transport")
    func statusesAndErrorFamilies() async throws {
        try await withSandbox { sandbox in
            let (status, report, errors) = try await Self.bench(["-n", "12", "-c", "3", IdempotencyKeyBinaryTests.base(sandbox) + "/status/503"])
            #expect(status == .exited(0), "the run ended: exit 0 whatever the calls answered; \(errors)")
            #expect(report["requests"] as? Int == 12 && report["succeeded"] as? Int == 0)
            #expect(Self.counts(report, "status") == ["503": 12])
            #expect(Self.counts(report, "errors").isEmpty)
        }
        let closed = RefusingPort()
        let (status, report, errors) = try await Self.bench(["-n", "6", "-c", "2", closed.baseURL.absoluteString + "/x"])
        #expect(status == .exited(0), "\(errors)")
        #expect(report["requests"] as? Int == 6 && report["succeeded"] as? Int == 0)
        #expect(Self.counts(report, "status").isEmpty)
        #expect(Self.counts(report, "errors") == ["transport": 6])
    }

    @Test("--rate 20: 10 calls, even with 5 workers, are spread over the run, not sent in a burst")
    func rateSpreadsStarts() async throws {
        try await withSandbox { sandbox in
            let key = "bench-rate-\(UUID().uuidString.prefix(8))"
            let url = IdempotencyKeyBinaryTests.base(sandbox) + "/flaky/\(key)?failures=0"
            let (status, report, errors) = try await Self.bench(["-n", "10", "-c", "5", "--rate", "20", url])
            #expect(status == .exited(0), "\(errors)")
            #expect(report["requests"] as? Int == 10)
            #expect(Self.number(report, "wall_s") >= 0.4, "\(report)")
            // The server's view: the 10 arrivals spread out over the run, not one burst (unpaced,
            // 5 workers send them within ~20 ms). Not the exact 450 ms: on a loaded machine the
            // first arrives late (its connection set up) and starved workers bunch up, so the span
            // is read with room (221 and 499 ms measured under the whole suite's load).
            let times = try await Self.flakyStats(sandbox, key).attemptTimesMs.sorted()
            #expect(times.count == 10)
            #expect((times.last ?? 0) - (times.first ?? 0) >= 200, "\(times)")
        }
    }

    @Test("--breaker against an always-failing route: it opens, later calls are rejected unsent and counted as server errors")
    func breakerRejects() async throws {
        try await withSandbox { sandbox in
            let key = "bench-breaker-\(UUID().uuidString.prefix(8))"
            let url = IdempotencyKeyBinaryTests.base(sandbox) + "/flaky/\(key)?failures=1000000"
            let (status, report, errors) = try await Self.bench(["-n", "300", "-c", "10", "--breaker", url])
            #expect(status == .exited(0), "\(errors)")
            #expect(report["requests"] as? Int == 300 && report["succeeded"] as? Int == 0)
            let breaker = Self.counts(report, "breaker")
            let rejected = breaker["rejected"] ?? 0
            #expect((breaker["opened"] ?? 0) >= 1, "\(report)")
            #expect(rejected > 0, "\(report)")
            #expect(Self.counts(report, "errors") == ["server": rejected], "each rejection is a circuitOpen, family server: \(report)")
            let answered = Self.counts(report, "status")["503"] ?? 0
            #expect(answered + rejected == 300)
            #expect(try await Self.flakyStats(sandbox, key).attempts == answered, "a rejected call is never sent")
        }
    }

    @Test("--pace against a route that allows 5 calls a second: no 429, time paced; without --pace, 429s")
    func pacingAvoids429() async throws {
        try await withSandbox { sandbox in
            let base = IdempotencyKeyBinaryTests.base(sandbox)
            let limited = { (key: String) in base + "/ratelimit/\(key)?family=ietf&limit=5&windowMs=1000" }
            let (status, report, errors) = try await Self.bench(
                ["-n", "12", "-c", "2", "--pace", limited("bench-pace-\(UUID().uuidString.prefix(8))")])
            #expect(status == .exited(0), "\(errors)")
            #expect(Self.counts(report, "status") == ["200": 12], "\(report)")
            #expect(Self.number(report, "paced_ms") > 0, "\(report)")
            // 20 calls, 4 at a time: only calls of most of a second each would stay within 5 a second.
            let (_, unpaced, _) = try await Self.bench(["-n", "20", "-c", "4", limited("bench-unpaced-\(UUID().uuidString.prefix(8))")])
            #expect((Self.counts(unpaced, "status")["429"] ?? 0) > 0, "a load unpaced is refused: \(unpaced)")
            #expect(Self.number(unpaced, "paced_ms") == 0)
        }
    }

    @Test("--duration 0.6: calls start for 0.6 s, then the run ends", .timeLimit(.minutes(2)))
    func durationBounded() async throws {
        try await withSandbox { sandbox in
            let url = IdempotencyKeyBinaryTests.base(sandbox) + "/flaky/bench-duration-\(UUID().uuidString.prefix(8))?failures=0&delayMs=20"
            let (status, report, errors) = try await Self.bench(["--duration", "0.6", "-c", "2", url])
            #expect(status == .exited(0), "\(errors)")
            let wall = Self.number(report, "wall_s")
            #expect(wall >= 0.6 && wall < 10, "\(report)")
            #expect((report["requests"] as? Int ?? 0) >= 2)
        }
    }

    @Test(
        "bad usage exits 64 with a message naming the flag",
        arguments: [
            (["-n", "0"], "-n"), (["-c", "0"], "-c"), (["-c", "1001"], "-c"), (["--rate", "0"], "--rate"),
            (["--duration", "0"], "--duration"), (["-n", "5", "--duration", "1"], "--duration"), (["--retry", "0"], "--retry"),
            (["--hedge", "soon"], "--hedge"),
        ])
    func badUsage(arguments: [String], flag: String) async throws {
        let (status, output, errors) = try await RequestOutputTests.courier(["bench"] + arguments + ["http://127.0.0.1:9/x", "--json"])
        #expect(status == .exited(64), "\(errors)")
        #expect(errors.contains(flag), "\(errors)")
        #expect(output.isEmpty, "nothing on stdout: \(String(decoding: output, as: UTF8.self))")
    }
}
