import Courier
import CourierObservability
import CourierResilience
import CourierSandbox
import Foundation
import HTTPTypes
import IntegrationTestSupport
import Synchronization
import Testing

/// The breaker and the pacer over real sockets, against the sandbox's `/flaky` outage window and
/// `/ratelimit` announced limits, on both transports.
@Suite("Resilience over sockets", .tags(.timing))
struct ResilienceSocketTests {
    @Test("during an outage the breaker keeps most calls from reaching the origin, and lets traffic back after it", arguments: TransportKind.allCases)
    func breakerDuringOutage(_ kind: TransportKind) async throws {
        try await withSandbox { sandbox in
            let policy = CircuitBreakerPolicy(failureRatio: 0.5, minimumThroughput: 5, breakDuration: .milliseconds(300))
            let client = NetworkClient(transport: kind.make(), middlewares: [CircuitBreakerMiddleware(policy: policy)])
            let outage = sandbox.get("/flaky/outage", query: ["failForMs": 1200])
            var refused = 0
            var refusalTimes: [Duration] = []
            var last: Int?
            let started = ContinuousClock.now
            // One call every 20 ms for 2 s: about 60 during the 1.2 s outage.
            while ContinuousClock.now - started < .seconds(2) {
                let callStarted = ContinuousClock.now
                do {
                    last = try await client.response(outage).statusCode
                } catch NetworkError.circuitOpen {
                    refused += 1
                    refusalTimes.append(ContinuousClock.now - callStarted)
                    last = nil
                } catch {
                    last = NetworkError(error).statusCode
                }
                try await Task.sleep(for: .milliseconds(20))
            }
            let stats = try await NetworkClient().request(sandbox.get("/flaky/outage/stats"), as: FlakyStats.self)
            let duringOutage = stats.attemptTimesMs.filter { $0 < 1200 }.count
            #expect(duringOutage <= 15, "5 to open, then a probe per 300 ms break: \(duringOutage) reached it (\(stats.failures) failed)")
            // How many calls fall in the outage depends on the machine's speed; the breaker's probes do not.
            #expect(refused > duringOutage, "more calls were refused at once than reached the origin: \(refused) vs \(duringOutage)")
            #expect(
                refusalTimes.isEmpty || refusalTimes.sorted()[refusalTimes.count / 2] < .milliseconds(5),
                "a refusal opens no connection: \(refusalTimes.max() ?? .zero)")
            #expect(last == 200 && stats.successes > 5, "traffic is back after the outage: \(stats.successes) successes")
        }
    }

    @Test("a slow first request is hedged on another connection; the loser is cancelled and the server sees it go", arguments: TransportKind.allCases)
    func hedgeOverSockets(_ kind: TransportKind) async throws {
        try await withSandbox { sandbox in
            let key = "hedge-\(kind)-\(UInt32.random(in: 0...UInt32.max))"
            let hedging = HedgingMiddleware(policy: HedgingPolicy(delay: .fixed(.milliseconds(100))))
            let client = NetworkClient(transport: kind.make(), middlewares: [hedging])
            let timeline = CallTimeline()
            let started = ContinuousClock.now
            // The key's first request waits 30 s; its second (the hedge) answers at once.
            let response = try await client.recording(into: timeline).response(
                sandbox.get("/counted/\(key)", query: ["delayMs": 30000, "slowHits": 1]))
            #expect(ContinuousClock.now - started < .seconds(15), "the hedge answered, not the 30 s first request")
            #expect(response.headers[HTTPField.Name("X-Hit")!] == "2")
            #expect(timeline.steps.contains { $0.kind == .hedgeWon(byHedge: true) })
            var stats = CountedStats()
            let waitStarted = ContinuousClock.now
            repeat {
                stats = try await NetworkClient().request(sandbox.get("/counted/\(key)/stats"), as: CountedStats.self)
                if stats.disconnects > 0 { break }
                try await Task.sleep(for: .milliseconds(50))
            } while ContinuousClock.now - waitStarted < .seconds(10)
            #expect(stats.hits == 2 && stats.disconnects == 1 && stats.inFlight == 0, "the loser's connection closed: \(stats)")
        }
    }

    @Test(
        "paced by the announced limit: 60 calls at 4 in flight against 20 per 2 s, no 429",
        arguments: TransportKind.allCases, ["ietf", "openai", "anthropic", "github"])
    func pacedByAnnouncedLimit(_ kind: TransportKind, _ family: String) async throws {
        try await withSandbox { sandbox in
            let client = NetworkClient(transport: kind.make(), middlewares: [RateLimitPacer()])
            let endpoint = sandbox.get("/ratelimit/pace", query: ["family": family, "limit": 20, "windowMs": 2000])
            let tally = Tally()
            let started = ContinuousClock.now
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        while tally.take(upTo: 60) {
                            do {
                                _ = try await client.response(endpoint)
                            } catch NetworkError.rateLimited {
                                tally.limited()
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            let wall = ContinuousClock.now - started
            let stats = try await NetworkClient().request(sandbox.get("/ratelimit/pace/stats"), as: RateLimitStats.self)
            #expect(stats.limited == 0 && tally.limitedCount == 0, "\(family): \(stats)")
            #expect(stats.requests == 60)
            #expect(wall >= .seconds(4), "three windows of 2 s: at least 4 s (\(wall))")
        }
    }
}

/// Calls handed out to the workers, and the ones answered 429.
private final class Tally: Sendable {
    private let state = Mutex((taken: 0, limited: 0))

    /// Takes one more call when fewer than `total` were taken.
    func take(upTo total: Int) -> Bool {
        state.withLock { state in
            guard state.taken < total else { return false }
            state.taken += 1
            return true
        }
    }

    func limited() { state.withLock { $0.limited += 1 } }

    var limitedCount: Int { state.withLock { $0.limited } }
}
