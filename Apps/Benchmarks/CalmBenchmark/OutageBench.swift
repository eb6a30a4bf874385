import Courier
import CourierAsyncHTTPClient
import CourierResilience
import Foundation
import Synchronization

/// An outage of 4 s under 100 calls/s, without and with the breaker (library defaults).
struct OutageBench {
    let base: URL
    let rounds: Int
    let rate = 100
    let seconds = 7

    struct Round {
        var duringOutage: Int
        var rejected: Int
        var rejectedP99: Double
        var backAfter: Double?
        var opened: Int
    }

    func run() async throws {
        print("outage: \(rate) calls/s for \(seconds) s, /outage down (503) from 1 s to 5 s; \(rounds) rounds, alternating")
        var plain: [Round] = []
        var guarded: [Round] = []
        for round in 0..<rounds {
            for breaker in round % 2 == 0 ? [false, true] : [true, false] {
                let result = try await measure(breaker: breaker, round: round)
                if breaker { guarded.append(result) } else { plain.append(result) }
            }
        }
        for (name, rows) in [("no breaker", plain), ("breaker", guarded)] {
            print(
                cell(name, 11) + " reached the origin during the outage (min/med/max) " + Spread(rows.map { Double($0.duringOutage) }).text(0)
                    + "; refused " + Spread(rows.map { Double($0.rejected) }).text(0) + ", refused p99 ms "
                    + Spread(rows.filter { $0.rejected > 0 }.map(\.rejectedP99)).text(3) + "; opened "
                    + Spread(rows.map { Double($0.opened) }).text(0) + "; full traffic s after the outage "
                    + Spread(rows.compactMap(\.backAfter)).text(2))
        }
        let ratios = zip(guarded, plain).map { Double($0.duringOutage) / Double(max(1, $1.duringOutage)) }
        let p99 = Spread(guarded.filter { $0.rejected > 0 }.map(\.rejectedP99)).median
        print(
            "verdict: origin requests during the outage with/without the breaker \(Spread(ratios).text(3)) (goal ≤ 0.25); refused p99 "
                + "\(format(p99, 3)) ms (goal < 1 ms): \(Spread(ratios).median <= 0.25 && p99 < 1 ? "met" : "NOT met")")
        print("")
    }

    private func measure(breaker: Bool, round: Int) async throws -> Round {
        let key = "outage-\(breaker)-\(round)-\(UInt32.random(in: 0...UInt32.max))"
        let transport = HTTPClientTransport()
        let counter = StepCounter()
        var configuration = NetworkClient.Configuration(transport: transport)
        let middleware = CircuitBreakerMiddleware()
        if breaker { configuration.middlewares = [middleware] }
        configuration.observers = [counter]
        let client = NetworkClient(configuration: configuration)
        let endpoint = Get(baseURL: base, path: "/outage/\(key)", query: ["afterMs": 1000, "forMs": 4000])
        let tally = RoundTally()
        let start = ContinuousClock.now
        let total = rate * seconds
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<total {
                // Calls start on schedule, whatever the earlier ones are doing (an open model).
                let due = start + .milliseconds(index * 1000 / rate)
                try? await Task.sleep(until: due)
                group.addTask {
                    let started = ContinuousClock.now
                    do {
                        _ = try await client.response(endpoint)
                    } catch NetworkError.circuitOpen {
                        tally.latencies.withLock { $0.append(milliseconds(ContinuousClock.now - started)) }
                    } catch {}
                }
            }
        }
        try await transport.shutdown()
        let stats = try await NetworkClient().request(Get(baseURL: base, path: "/outage/\(key)/stats"), as: OutageCount.self)
        let refused = tally.latencies.withLock { $0 }.sorted()
        return Round(
            duringOutage: stats.duringOutage, rejected: refused.count, rejectedP99: percentile(refused, 0.99),
            backAfter: stats.firstOkAfterOutageMs.map { Double($0) / 1000 }, opened: counter.snapshot.opened)
    }
}

/// What the sandbox's `/outage/{key}/stats` says.
struct OutageCount: Decodable {
    var duringOutage: Int
    var firstOkAfterOutageMs: Int?
}
