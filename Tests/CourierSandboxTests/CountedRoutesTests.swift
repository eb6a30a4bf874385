import AsyncHTTPClient
import CourierSandbox
import Foundation
import IntegrationTestSupport
import Testing

/// `/counted/{key}`: hits, concurrency and disconnects, for de-duplication tests.
@Suite("Sandbox: counted routes for de-duplication")
struct CountedRoutesTests {
    @Test("each request waits 50 ms by default, then answers {key, hit} with X-Hit counting the key's hits")
    func hits() async throws {
        try await withSandbox { sandbox in
            for hit in 1...3 {
                let start = ContinuousClock.now
                let answer = try await sandbox.send(.GET, "/counted/feed")
                #expect(ContinuousClock.now - start >= .milliseconds(50))
                #expect(answer.status == 200 && answer.header("X-Hit") == "\(hit)" && answer.header("Connection") == "close")
                #expect(answer.object["key"] as? String == "feed" && answer.object["hit"] as? Int == hit)
            }
            let other = try await sandbox.send(.GET, "/counted/other?delayMs=0")
            #expect(other.header("X-Hit") == "1")
            #expect(try await sandbox.json("/counted/feed/stats", as: CountedStats.self) == CountedStats(hits: 3, inFlight: 0, maxInFlight: 1))
        }
    }

    @Test("bytes=B answers exactly B bytes of i mod 256; HEAD gives the same head with no body, and counts")
    func bytesAndHead() async throws {
        try await withSandbox { sandbox in
            let answer = try await sandbox.send(.GET, "/counted/blob?delayMs=0&bytes=70000")
            #expect(answer.status == 200 && answer.header("Content-Type") == "application/octet-stream")
            #expect(answer.body.count == 70000 && answer.body.enumerated().allSatisfy { $0.element == UInt8(truncatingIfNeeded: $0.offset) })
            let head = try await sandbox.send(.HEAD, "/counted/blob?delayMs=0&bytes=70000")
            #expect(head.status == 200 && head.header("Content-Length") == "70000" && head.header("X-Hit") == "2" && head.body.isEmpty)
            let empty = try await sandbox.send(.GET, "/counted/blob?delayMs=0&bytes=0")
            #expect(empty.status == 200 && empty.body.isEmpty && empty.header("X-Hit") == "3")
        }
    }

    @Test("six requests at once are all in flight together: maxInFlight 6, hits 6, none left in flight")
    func concurrency() async throws {
        try await withSandbox { sandbox in
            let hits = try await withThrowingTaskGroup(of: String?.self) { group in
                // Six: under AsyncHTTPClient's default of eight connections per host.
                for _ in 0..<6 {
                    group.addTask { try await sandbox.send(.GET, "/counted/burst?delayMs=3000").header("X-Hit") }
                }
                return try await group.reduce(into: [String?]()) { $0.append($1) }
            }
            #expect(Set(hits.compactMap { $0 }) == Set((1...6).map(String.init)))
            #expect(try await sandbox.json("/counted/burst/stats", as: CountedStats.self) == CountedStats(hits: 6, inFlight: 0, maxInFlight: 6))
        }
    }

    @Test("a client that goes away while its request waits is counted as a disconnect long before the wait ends")
    func disconnect() async throws {
        try await withSandbox { sandbox in
            let waiting = Task { try await sandbox.send(.GET, "/counted/gone?delayMs=60000") }
            let entered = await eventually { try await sandbox.json("/counted/gone/stats", as: CountedStats.self).inFlight == 1 }
            #expect(entered)
            waiting.cancel()
            let seen = await eventually(timeout: .seconds(5)) {
                try await sandbox.json("/counted/gone/stats", as: CountedStats.self).disconnects == 1
            }
            #expect(seen, "no disconnect within 5 s of the client leaving (the wait is 60 s)")
            let stats = try await sandbox.json("/counted/gone/stats", as: CountedStats.self)
            #expect(stats == CountedStats(hits: 1, inFlight: 0, maxInFlight: 1, disconnects: 1))
            let answer = try? await waiting.value
            #expect(answer == nil, "the cancelled request got no answer")
        }
    }

    @Test("reset forgets every key; a wrong parameter answers 400")
    func resetAndValidation() async throws {
        try await withSandbox { sandbox in
            _ = try await sandbox.send(.GET, "/counted/r?delayMs=0")
            try await sandbox.reset("/counted/reset")
            #expect(try await sandbox.json("/counted/r/stats", as: CountedStats.self) == CountedStats())
            let again = try await sandbox.send(.GET, "/counted/r?delayMs=0")
            #expect(again.header("X-Hit") == "1")
            for query in ["delayMs=-1", "bytes=lots", "bytes=-2"] {
                #expect(try await sandbox.send(.GET, "/counted/r?\(query)").status == 400, "\(query)")
            }
        }
    }
}
