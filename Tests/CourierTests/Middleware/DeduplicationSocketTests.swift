import Courier
import CourierSandbox
import Foundation
import IntegrationTestSupport
import Testing

/// ``DeduplicationMiddleware`` against the sandbox's `/counted/{key}` route.
@Suite("De-duplication over sockets")
struct DeduplicationSocketTests {
    struct CountedStats: Decodable, Sendable {
        var hits: Int
        var inFlight: Int
        var maxInFlight: Int
        var disconnects: Int
    }

    let key = "d-\(UUID().uuidString.prefix(8))"

    func counted(_ sandbox: RunningSandbox, _ query: RequestParameters = [:], headers: [String: String]? = nil) -> TestEndpoint {
        TestEndpoint(baseURL: sandbox.baseURL, path: "/counted/\(key)", task: .requestParameters(query, encoding: .url), headers: headers)
    }

    func stats(_ sandbox: RunningSandbox) async -> CountedStats? {
        try? await NetworkClient().request(TestEndpoint(baseURL: sandbox.baseURL, path: "/counted/\(key)/stats"), as: CountedStats.self)
    }

    @Test("100 identical GETs at once: one upstream request, every caller gets the whole body")
    func hundred() async throws {
        try await withSandbox { sandbox in
            let client = NetworkClient(configuration: .init(middlewares: [DeduplicationMiddleware()]))
            let endpoint = counted(sandbox, ["delayMs": 200, "bytes": 100_000])
            let bodies = try await withThrowingTaskGroup(of: Data.self) { group in
                for _ in 0..<100 { group.addTask { try await client.response(endpoint).body } }
                return try await group.reduce(into: [Data]()) { $0.append($1) }
            }
            let expected = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0) })
            #expect(bodies.count == 100 && bodies.allSatisfy { $0 == expected })
            #expect(await stats(sandbox)?.hits == 1)
        }
    }

    @Test("callers that differ in Authorization never share; POST is never shared")
    func identity() async throws {
        try await withSandbox { sandbox in
            let client = NetworkClient(configuration: .init(middlewares: [DeduplicationMiddleware()]))
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<10 {
                    let endpoint = counted(sandbox, ["delayMs": 200], headers: ["Authorization": "Bearer user-\(index % 2)"])
                    group.addTask { _ = try await client.response(endpoint) }
                }
                try await group.waitForAll()
            }
            #expect(await stats(sandbox)?.hits == 2)
        }
    }

    @Test("one caller cancelling leaves at once; the others still get the answer from the one request")
    func cancelOne() async throws {
        try await withSandbox { sandbox in
            let client = NetworkClient(configuration: .init(middlewares: [DeduplicationMiddleware()]))
            let endpoint = counted(sandbox, ["delayMs": 3000])
            // The caller that starts the shared request waits for it even when cancelled (see
            // DeduplicationMiddleware); one that joined it leaves at once.
            let stayers = (0..<5).map { _ in Task { () async throws(NetworkError) -> NetworkResponse in try await client.response(endpoint) } }
            await eventually { await stats(sandbox)?.inFlight == 1 }
            let leaver = Task { () async throws(NetworkError) -> NetworkResponse in try await client.response(endpoint) }
            try await Task.sleep(for: .milliseconds(200))  // time to join; cancelled before joining, it leaves at once too
            leaver.cancel()
            let left = await leaver.result
            #expect(throws: NetworkError.taskCancelled) { try left.get() }
            // It left at once: the one request (3 s) was still in flight when it had gone.
            let during = await stats(sandbox)
            #expect(during?.inFlight == 1, "\(String(describing: during))")
            for stayer in stayers {
                let result = await stayer.result
                #expect((try? result.get())?.statusCode == 200)
            }
            #expect(await stats(sandbox)?.hits == 1)
        }
    }

    @Test("when every caller has gone, the upstream request is cancelled (the server sees the disconnect)")
    func cancelAll() async throws {
        try await withSandbox { sandbox in
            let dedup = DeduplicationMiddleware()
            let client = NetworkClient(configuration: .init(middlewares: [dedup]))
            let endpoint = counted(sandbox, ["delayMs": 20000])
            let tasks = (0..<3).map { _ in Task { () async throws(NetworkError) -> NetworkResponse in try await client.response(endpoint) } }
            await eventually { await stats(sandbox)?.inFlight == 1 }
            for task in tasks { task.cancel() }
            for task in tasks {
                let result = await task.result
                #expect(throws: NetworkError.taskCancelled) { try result.get() }
            }
            await eventually(timeout: .seconds(5)) { await stats(sandbox)?.disconnects == 1 }
            #expect(dedup.inFlight == 0)
        }
    }
}
