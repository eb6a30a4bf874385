import Courier
import CourierSandbox
import IntegrationTestSupport
import Testing

@testable import CourierConcurrency

/// Bounded fan-out against the sandbox: the server's own count of concurrent requests.
@Suite("Fan-out over sockets", .serialized)
struct FanOutSocketTests {
    @Test func concurrentMapNeverExceedsItsLimitOnTheServer() async throws {
        try await withSandbox { sandbox, client in
            let delays = (0..<40).map { 20 + ($0 % 4) * 10 }
            let answers = try await delays.concurrentMap(limit: 6) { ms in
                try await client.request(sandbox.delay(ms), as: Delayed.self)
            }
            #expect(answers.map(\.delayedMs) == delays)  // in input order
            let stats = try await sandbox.stats(client)
            #expect(stats.total == 40)
            #expect(stats.maxInFlight <= 6)
            #expect(stats.maxInFlight >= 2)  // it did fan out
        }
    }

    @Test func mergedResultsNeverExceedsItsLimitAndStreamsEveryOutcome() async throws {
        try await withSandbox { sandbox, client in
            var values = 0
            var failures = 0
            let paths = (0..<30).map { $0 % 10 == 9 ? "/status/404" : "/probe/delay/\(10 + $0)" }
            for await finished in paths.mergedResults(
                limit: 4,
                { path in
                    try await client.request(sandbox.get(path), as: Delayed.self)
                })
            {
                switch finished.result {
                case .success: values += 1
                case .failure(let error):
                    #expect(error == .notFound(404))
                    failures += 1
                }
            }
            #expect(values == 27 && failures == 3)
            let stats = try await sandbox.stats(client)
            #expect(stats.maxInFlight <= 4)
        }
    }
}
