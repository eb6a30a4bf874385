import Courier
import CourierAsyncHTTPClient
import CourierObservability
import CourierResilience
import CourierSandbox
import Foundation
import NIOPosix
import Synchronization

// Calm under load: hedged requests, the circuit breaker and rate-limit pacing against the
// in-process sandbox (on its own event loop), each beside its baseline in the same run, rounds
// alternating. Run with `swift run -c release --package-path Apps CalmBenchmark [hedge|outage|pace]`
// (default: all three; `COURIER_BENCH_ROUNDS` sets the rounds, 7 by default).
//
// - hedge: `/tail` answers in `fastMs` (10 ms) but 4% of requests take 1 s; 500 calls started at
//   100/s (an open model: the same load for each contender), without hedging, with a fixed 50 ms delay, with the adaptive delay (p95): p50, p99, extra
//   requests. Goal: p99 ≤ 1/4 of unhedged, extra ≤ 10%, p50 within 5%.
// - outage: 100 calls/s for 7 s against `/outage`, down (503) from 1 s to 5 s, without and with
//   the breaker (library defaults): requests that reached the origin during the outage (goal
//   ≤ 1/4), how fast refused calls failed (goal p99 < 1 ms), seconds to full traffic after it.
// - pace: 60 calls at 4 in flight against 20 per 2 s announced in each header family, without
//   and with the pacer: 429s (goal 0 with it) and wall time (goal within 10% of the limit's 4 s
//   minimum; a whole-second reset — GitHub's, the sandbox's Anthropic one — may cost up to 1 s per window).

@main
struct CalmBenchmark {
    static func main() async throws {
        try await run()
    }

    nonisolated static func run() async throws {
        let which = Set(CommandLine.arguments.dropFirst())
        func wanted(_ name: String) -> Bool { which.isEmpty || which.contains(name) }
        let rounds = Int(ProcessInfo.processInfo.environment["COURIER_BENCH_ROUNDS"] ?? "") ?? 7

        var options = SandboxServer.Options()
        let serverLoops = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        options.eventLoopGroup = serverLoops
        let sandbox = try await SandboxServer.start(options: options)
        print("load average at start: \(loadAverage())")
        if wanted("hedge") { try await HedgeBench(base: sandbox.baseURL, rounds: rounds).run() }
        if wanted("outage") { try await OutageBench(base: sandbox.baseURL, rounds: rounds).run() }
        if wanted("pace") { try await PaceBench(base: sandbox.baseURL, rounds: rounds).run() }
        print("load average at end: \(loadAverage())")
        try await sandbox.stop()
        try await serverLoops.shutdownGracefully()
    }

    static func loadAverage() -> String {
        (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
    }
}

/// `GET baseURL/path?query`.
struct Get: Endpoint {
    let baseURL: URL
    let path: String
    var query: RequestParameters = [:]
    var method: Courier.HTTPMethod { .get }
    var task: HTTPTask { query.isEmpty ? .requestPlain : .requestParameters(query, encoding: .url) }
}

/// Counts the steps the benchmarks report: hedges sent and won, breaker refusals and openings,
/// time paced.
final class StepCounter: CallObserver {
    private let counts = Mutex((hedgesSent: 0, hedgesWon: 0, rejected: 0, opened: 0, pacedMs: 0))

    var observesEachStep: Bool { false }

    func callEnded(_ steps: [CallStep]) {
        counts.withLock { counts in
            for step in steps {
                switch step.kind {
                case .hedgeSent: counts.hedgesSent += 1
                case .hedgeWon(let byHedge): if byHedge { counts.hedgesWon += 1 }
                case .breaker(.rejected): counts.rejected += 1
                case .breaker(.opened): counts.opened += 1
                case .paced(let wait): counts.pacedMs += Int(milliseconds(wait))
                default: break
                }
            }
        }
    }

    var snapshot: (hedgesSent: Int, hedgesWon: Int, rejected: Int, opened: Int, pacedMs: Int) { counts.withLock { $0 } }
}

/// What a round's callers share: the next call's number, latencies, counts.
final class RoundTally: Sendable {
    let next = Atomic<Int>(0)
    let limited = Atomic<Int>(0)
    let latencies = Mutex<[Double]>([])
}

/// Min / median / max of a series.
struct Spread {
    let values: [Double]
    init(_ values: [Double]) { self.values = values.sorted() }
    var min: Double { values.first ?? .nan }
    var median: Double { values.isEmpty ? .nan : values[values.count / 2] }
    var max: Double { values.last ?? .nan }
    func text(_ digits: Int = 1) -> String {
        "\(format(min, digits)) / \(format(median, digits)) / \(format(max, digits))"
    }
}

func format(_ value: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", value) }

/// The `fraction` percentile of sorted `values` (nearest rank).
func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
    guard !sorted.isEmpty else { return .nan }
    let rank = Swift.max(1, Int((fraction * Double(sorted.count)).rounded(.up)))
    return sorted[Swift.min(sorted.count, rank) - 1]
}

func milliseconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) * 1000 + Double(attoseconds) / 1e15
}

func cell(_ text: String, _ width: Int) -> String { text.padding(toLength: Swift.max(width, text.count), withPad: " ", startingAt: 0) }
