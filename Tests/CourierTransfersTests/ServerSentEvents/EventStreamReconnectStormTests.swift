import Courier
import CourierSandbox
import CourierTransfers
import Foundation
import HTTPTypes
import IntegrationTestSupport
import OpenAPIRuntime
import Synchronization
import Testing

/// A server cannot make a stream's reconnects storm it: `retry: 0` and a dropped connection every
/// time still wait at least the floor, doubling; a POST stream is not sent twice.
@Suite("Event stream reconnects cannot storm")
struct EventStreamReconnectStormTests {
    @Test("the wait doubles from the floor whatever retry: says, up to the cap")
    func waits() {
        let reconnect = EventStreamOptions.Reconnect(delay: .seconds(3), minimumDelay: .milliseconds(500), maxDelay: .seconds(4))
        #expect(reconnect.wait(failures: 1, serverRetry: 0) == .milliseconds(500))
        #expect(reconnect.wait(failures: 2, serverRetry: 0) == .seconds(1))
        #expect(reconnect.wait(failures: 3, serverRetry: 0) == .seconds(2))
        #expect(reconnect.wait(failures: 9, serverRetry: 0) == .seconds(4))
        #expect(reconnect.wait(failures: 1, serverRetry: nil) == .seconds(3))
        #expect(reconnect.wait(failures: 1, serverRetry: Int.max / 2) == .seconds(4))
        #expect(reconnect.wait(failures: 1_000_000, serverRetry: 1) == .seconds(4))
    }

    @Test("retry: 0 with every connection dropped: four connections take at least the floor's 100+200+400 ms")
    func floorAndBackoff() async throws {
        try await withSandbox { sandbox in
            let key = "storm-\(UUID().uuidString.prefix(8))"
            let options = EventStreamOptions(reconnect: .init(delay: .milliseconds(1), maxAttempts: 3, minimumDelay: .milliseconds(100)))
            let endpoint = TestEndpoint(sandbox.baseURL, "/sse/events", query: ["count": 5, "dropAfter": 0, "retry": 0, "key": key])
            let started = ContinuousClock.now
            await #expect(throws: NetworkError.self) {
                for try await _ in NetworkClient().events(endpoint, options: options) {}
            }
            #expect(ContinuousClock.now - started >= .milliseconds(700))
            let stats = try await NetworkClient().request(TestEndpoint(sandbox.baseURL, "/sse/stats", query: ["key": key]), as: SSEStats.self)
            #expect(stats.connections == 4, "one connection and three reconnects, then the error")
        }
    }

    /// A transport whose every answer is a dropped connection, counting the calls.
    final class DroppingTransport: ClientTransport, Sendable {
        let calls = Mutex(0)
        func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
            calls.withLock { $0 += 1 }
            throw URLError(.networkConnectionLost)
        }
    }

    @Test("a POST stream is not sent again unless the caller opts in")
    func postNotReplayed() async throws {
        for (optIn, expected) in [(false, 1), (true, 3)] {
            let transport = DroppingTransport()
            let client = NetworkClient(transport: transport)
            let endpoint = TestEndpoint(
                baseURL: URL(string: "https://llm.example.com")!, path: "/v1/stream", method: .post,
                task: .requestData(Data("{}".utf8), contentType: "application/json"))
            let options = EventStreamOptions(
                reconnect: .init(
                    delay: .milliseconds(1), maxAttempts: 2, minimumDelay: .milliseconds(1),
                    replaysNonIdempotent: optIn))
            await #expect(throws: NetworkError.networkError(URLError(.networkConnectionLost))) {
                for try await _ in client.events(endpoint, options: options) {}
            }
            #expect(transport.calls.withLock { $0 } == expected, "opt-in: \(optIn)")
        }
    }
}
