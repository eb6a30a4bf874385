import Courier
import Foundation
import Testing

/// Cancelling the calling task cancels the transport request and surfaces as `taskCancelled`.
@Suite("Cancellation")
struct CancellationTests {
    @Test("mid-request cancellation → taskCancelled within 50 ms, server sees the disconnect, no connection stays busy", arguments: TransportKind.allCases)
    func midRequest(_ kind: TransportKind) async throws {
        try await withSandbox { sandbox in
            let client = NetworkClient(transport: kind.make())
            for path in ["/probe/delay/5000", "/probe/slow/5000"] {
                let task = Task { () throws(NetworkError) -> Response in
                    try await client.response(TestEndpoint(baseURL: sandbox.baseURL, path: path))
                }
                try await waitUntil { try await stats(client, sandbox.baseURL).inFlight == 1 }
                let start = ContinuousClock.now
                task.cancel()
                let result = await task.result
                let elapsed = ContinuousClock.now - start
                guard case .failure(let error) = result else {
                    Issue.record("\(path): expected cancellation")
                    continue
                }
                #expect(NetworkError(error) == .taskCancelled, "\(path): \(error)")
                #expect(elapsed < .milliseconds(50), "\(path): \(elapsed)")
                // The server sees the client go away, and nothing stays in flight.
                try await waitUntil { try await stats(client, sandbox.baseURL).inFlight == 0 }
            }
            let final = try await stats(client, sandbox.baseURL)
            #expect(final.disconnects == 2)
            // The pool is usable at once.
            let start = ContinuousClock.now
            #expect(try await client.response(TestEndpoint(baseURL: sandbox.baseURL, path: "/json")).statusCode == 200)
            #expect(ContinuousClock.now - start < .seconds(1))
        }
    }

    @Test("a task cancelled before it starts → taskCancelled, nothing sent", arguments: TransportKind.allCases)
    func preCancelled(_ kind: TransportKind) async throws {
        try await withSandbox { sandbox in
            let client = NetworkClient(transport: kind.make())
            let task = Task { () throws(NetworkError) -> Response in
                withUnsafeCurrentTask { $0?.cancel() }
                return try await client.response(TestEndpoint(baseURL: sandbox.baseURL, path: "/probe/delay/10"))
            }
            let result = await task.result
            guard case .failure(let error) = result else {
                Issue.record("expected cancellation")
                return
            }
            #expect(NetworkError(error) == .taskCancelled)
            let after = try await stats(client, sandbox.baseURL)
            #expect(after.total == 0)
        }
    }

    @Test("isTaskCancellation covers every form")
    func isTaskCancellation() {
        #expect(CancellationError().isTaskCancellation)
        #expect(URLError(.cancelled).isTaskCancellation)
        #expect(NetworkError.taskCancelled.isTaskCancellation)
        #expect(!URLError(.timedOut).isTaskCancellation)
        #expect(!NetworkError.notFound(404).isTaskCancellation)
        #expect(NetworkError(CancellationError()) == .taskCancelled)
        #expect(NetworkError(URLError(.cancelled)) == .taskCancelled)
    }
}

func stats(_ client: NetworkClient, _ baseURL: URL) async throws -> ProbeStats {
    try await client.request(TestEndpoint(baseURL: baseURL, path: "/probe/stats"), as: ProbeStats.self)
}

/// Polls `condition` every 5 ms for up to 3 s.
func waitUntil(_ condition: () async throws -> Bool, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    let end = ContinuousClock.now + .seconds(3)
    while ContinuousClock.now < end {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(5))
    }
    Issue.record("condition not met within 3 s", sourceLocation: sourceLocation)
}
