import Courier
import CourierSandbox
import IntegrationTestSupport
import Testing

@testable import CourierConcurrency

/// Single-flight and latest-wins against the sandbox.
@Suite("Coordination over sockets", .serialized)
struct CoordinationSocketTests {
    @Test func hundredConcurrentIdenticalCallsMakeOneUpstreamRequest() async throws {
        try await withSandbox { sandbox, client in
            let flight = SingleFlight<String, Delayed>()
            let endpoint = sandbox.delay(1500)
            let callers = (0..<100).map { _ in
                Task { try await flight.value(for: "GET /probe/delay/1500") { try await client.request(endpoint, as: Delayed.self) } }
            }
            // Every caller joins while the one request is still in flight.
            await eventually { await flight.waiterCount(for: "GET /probe/delay/1500") == 100 }
            for caller in callers {
                #expect(try await caller.value == Delayed(delayedMs: 1500))
            }
            let stats = try await sandbox.stats(client)
            #expect(stats.total == 1)
        }
    }

    @Test func latestWinsCancelsTheEarlierTransportRequest() async throws {
        try await withSandbox { sandbox, client in
            let latest = LatestTask<Delayed>()
            // /probe/slow streams its body, so the server notices when the client goes away.
            let slow = sandbox.get("/probe/slow/5000")
            let first = Task { try await latest.run { try await client.request(slow, as: Delayed.self) } }
            await eventually { (try? await sandbox.stats(client).inFlight) == 1 }

            let second = try await latest.run { try await client.request(sandbox.delay(10), as: Delayed.self) }
            #expect(second == Delayed(delayedMs: 10))
            await #expect(throws: NetworkError.taskCancelled) { try await first.value }

            // The server saw the first client go away, and nothing is left in flight.
            await eventually { (try? await sandbox.stats(client)).map { $0.disconnects == 1 && $0.inFlight == 0 } ?? false }
            let stats = try await sandbox.stats(client)
            #expect(stats.total == 2 && stats.disconnects == 1)
        }
    }

    @Test func orderedRevealStartsEveryRequestAtOnceButRevealsTopDown() async throws {
        try await withSandbox { sandbox, client in
            let reveals = Recorder<(String, ContinuousClock.Instant)>()
            let started = Recorder<String>()
            let sawEveryStart = Recorder<Bool>()
            func section(_ id: String, _ ms: Int) -> RevealSection {
                RevealSection(
                    id,
                    operation: {
                        // Each operation waits until all three have started: were the sections run one after
                        // another, the first would wait alone and record false. No timing is assumed, so a
                        // loaded machine cannot make this fail.
                        await started.append(id)
                        await sawEveryStart.append(await eventually { await started.entries.count == 3 })
                        return try await client.request(sandbox.delay(ms), as: Delayed.self).delayedMs
                    }
                ) { state in
                    if state.isFinished { await reveals.append((id, .now)) }
                }
            }
            let reveal = OrderedReveal(
                interval: .milliseconds(100),
                sections: [section("overview", 900), section("weekly", 50), section("today", 80)])
            await reveal.run()
            let order = await reveals.entries
            #expect(order.map(\.0) == ["overview", "weekly", "today"])
            #expect(order[1].1 - order[0].1 >= .milliseconds(100))
            #expect(order[2].1 - order[1].1 >= .milliseconds(100))
            // The slow first section held back the reveals, not the requests: all three had started before any
            // of them sent its request, and the server answered each once.
            #expect(await sawEveryStart.entries == [true, true, true])
            let stats = try await sandbox.stats(client)
            #expect(stats.total == 3)
        }
    }
}
