import Courier
import CourierAsyncHTTPClient
import CourierResilience
import Foundation
import Synchronization

/// A 4% tail of 1 s: unhedged, a fixed delay, the adaptive delay.
struct HedgeBench {
    let base: URL
    let rounds: Int
    let calls = 500
    let rate = 100

    enum Contender: String, CaseIterable {
        case none = "no hedging"
        case fixed = "fixed 50 ms"
        case adaptive = "adaptive p95"
    }

    struct Round {
        var p50: Double
        var p99: Double
        var extra: Double
        var hedgesWon: Int
    }

    func run() async throws {
        print("hedge: \(calls) calls per round started at \(rate)/s; /tail: 10 ms, 4% of requests 1 s; \(rounds) rounds, contenders alternating")
        var results: [Contender: [Round]] = [:]
        for round in 0..<rounds {
            let order = round % 2 == 0 ? Contender.allCases : Contender.allCases.reversed()
            for contender in order {
                results[contender, default: []].append(try await measure(contender, round: round))
            }
        }
        print(
            cell("contender", 14) + " " + cell("p50 ms (min/med/max)", 24) + cell("p99 ms (min/med/max)", 28) + cell("extra requests %", 22)
                + "hedges won (median)")
        for contender in Contender.allCases {
            let rows = results[contender] ?? []
            print(
                cell(contender.rawValue, 14) + " " + cell(Spread(rows.map(\.p50)).text(), 24) + cell(Spread(rows.map(\.p99)).text(), 28)
                    + cell(Spread(rows.map { $0.extra * 100 }).text(), 22) + "\(Spread(rows.map { Double($0.hedgesWon) }).median)")
        }
        let none = results[.none] ?? []
        for contender in [Contender.fixed, .adaptive] {
            let rows = results[contender] ?? []
            // Per round against the unhedged round beside it.
            let p99Ratios = zip(rows, none).map { $0.p99 / $1.p99 }
            let p50Ratios = zip(rows, none).map { $0.p50 / $1.p50 }
            let extra = Spread(rows.map(\.extra)).median
            let met = Spread(p99Ratios).median <= 0.25 && extra <= 0.10 && abs(Spread(p50Ratios).median - 1) <= 0.05
            print(
                "verdict \(contender.rawValue): p99 ratio \(Spread(p99Ratios).text(3)) (goal ≤ 0.25), p50 ratio \(Spread(p50Ratios).text(3)) "
                    + "(goal within 5%), extra \(format(extra * 100, 1))% (goal ≤ 10%): \(met ? "met" : "NOT met")")
        }
        print("")
    }

    private func measure(_ contender: Contender, round: Int) async throws -> Round {
        let key = "hedge-\(contender)-\(round)-\(UInt32.random(in: 0...UInt32.max))"
        let transport = HTTPClientTransport()
        let counter = StepCounter()
        var configuration = NetworkClient.Configuration(transport: transport)
        switch contender {
        case .none: break
        case .fixed: configuration.middlewares = [HedgingMiddleware(policy: HedgingPolicy(delay: .fixed(.milliseconds(50))))]
        case .adaptive: configuration.middlewares = [HedgingMiddleware(policy: HedgingPolicy(delay: .adaptive()))]
        }
        configuration.observers = [counter]
        let client = NetworkClient(configuration: configuration)
        let endpoint = Get(baseURL: base, path: "/tail/\(key)", query: ["p": "0.04", "slowMs": 1000, "fastMs": 10])
        let tally = RoundTally()
        let calls = self.calls
        // An open model: calls start on schedule whatever the earlier ones are doing, so every
        // contender puts the same load on the machine (a closed loop of callers would run the
        // hedged contenders several times faster, the slow calls no longer holding the callers).
        let start = ContinuousClock.now
        let rate = self.rate
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<calls {
                try? await Task.sleep(until: start + .microseconds(index * 1_000_000 / rate))
                group.addTask {
                    let started = ContinuousClock.now
                    _ = try? await client.response(endpoint)
                    let took = milliseconds(ContinuousClock.now - started)
                    tally.latencies.withLock { $0.append(took) }
                }
            }
        }
        try await transport.shutdown()
        let stats = try await NetworkClient().request(Get(baseURL: base, path: "/tail/\(key)/stats"), as: TailCount.self)
        let sorted = tally.latencies.withLock { $0 }.sorted()
        let counts = counter.snapshot
        return Round(
            p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), extra: Double(stats.requests - calls) / Double(calls),
            hedgesWon: counts.hedgesWon)
    }
}

/// What the sandbox's `/tail/{key}/stats` says of requests.
struct TailCount: Decodable {
    var requests: Int
}
