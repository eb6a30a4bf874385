import Courier
import CourierAsyncHTTPClient
import CourierSandbox
import CourierTransfers
import Foundation
import IntegrationTestSupport
import OpenAPIAsyncHTTPClient
import Testing

/// `events(_:)` against the sandbox's `/sse/*` routes over real sockets.
@Suite("Server-sent events over sockets", .tags(.timing))
struct EventStreamSocketTests {
    struct Tick: Decodable, Sendable, Equatable {
        var n: Int
    }

    /// What `/sse/stats` reports.
    struct Stats: Decodable, Sendable {
        var connections: Int
        var open: Int
        var disconnects: Int
        var completed: Int
        var lastEventIDs: [String]
    }

    func sse(_ sandbox: RunningSandbox, _ query: RequestParameters, timeout: Duration? = nil) -> TestEndpoint {
        TestEndpoint(baseURL: sandbox.baseURL, path: "/sse/events", task: .requestParameters(query, encoding: .url), timeout: timeout)
    }

    func stats(_ sandbox: RunningSandbox, _ key: String) async throws -> Stats {
        let client = NetworkClient()
        return try await client.request(
            TestEndpoint(baseURL: sandbox.baseURL, path: "/sse/stats", task: .requestParameters(["key": key], encoding: .url)))
    }

    func collect(_ events: ServerEventStream) async throws(NetworkError) -> [ServerEvent] {
        var all: [ServerEvent] = []
        for try await event in events { all.append(event) }
        return all
    }

    @Test(
        "ids, types and data arrive as sent, whatever the line ends, with a BOM and comments",
        arguments: TransportKind.allCases, ["lf", "cr", "crlf"])
    func lineEnds(_ kind: TransportKind, ending: String) async throws {
        try await withSandbox { sandbox in
            let client = NetworkClient(transport: kind.make())
            let query: RequestParameters = ["count": 5, "event": "tick", "lineEnding": ending, "bom": 1, "comments": 1, "multiline": 1]
            let events = try await collect(client.events(sse(sandbox, query)))
            #expect(events.map(\.id) == ["1", "2", "3", "4", "5"])
            #expect(events.allSatisfy { $0.event == "tick" })
            #expect(events.first?.data == "{\"n\":1,\n\"two\":true}")
        }
    }

    @Test("a stream split into 1-byte pieces parses the same as whole (POST /sse/echo)")
    func bytewise() async throws {
        try await withSandbox { sandbox in
            let text = "\u{FEFF}retry: 1500\r\n\r\nid: 7\r\nevent: note\rdata: 서울\ndata: 문화\n\n: skip\nid\ndata: x\n\ndata: unterminated"
            let endpoint = TestEndpoint(
                baseURL: sandbox.baseURL, path: "/sse/echo", method: .post,
                task: .requestComposite(query: ["chunk": 1, "intervalMs": 0], body: .requestData(Data(text.utf8), contentType: "text/plain")))
            let events = try await collect(NetworkClient().events(endpoint))
            #expect(
                events == [
                    ServerEvent(id: "7", event: "note", data: "서울\n문화", lastEventID: "7"),
                    ServerEvent(id: "", data: "x", lastEventID: ""),
                ])
        }
    }

    @Test("typed events decode each data; a bad one ends the stream with decodingError")
    func typed() async throws {
        try await withSandbox { sandbox in
            var seen: [Int] = []
            for try await tick in NetworkClient().events(sse(sandbox, ["count": 3]), as: Tick.self) { seen.append(tick.value.n) }
            #expect(seen == [1, 2, 3])
            let bad = TestEndpoint(
                baseURL: sandbox.baseURL, path: "/sse/echo", method: .post,
                task: .requestData(Data("data: {\"n\":1}\n\ndata: oops\n\n".utf8), contentType: "text/plain"))
            var decoded = 0
            let error = await #expect(throws: NetworkError.self) {
                for try await _ in NetworkClient().events(bad, as: Tick.self) { decoded += 1 }
            }
            #expect(decoded == 1 && error?.caseName == "decodingError")
        }
    }

    @Test("a dropped stream reconnects with Last-Event-ID and resumes without loss or repeats", arguments: TransportKind.allCases)
    func resume(_ kind: TransportKind) async throws {
        try await withSandbox { sandbox in
            let key = "resume-\(UUID().uuidString.prefix(8))"
            let options = EventStreamOptions(reconnect: .init(delay: .milliseconds(20), minimumDelay: .milliseconds(20)))
            let events = try await collect(
                NetworkClient(transport: kind.make()).events(sse(sandbox, ["count": 10, "dropAfter": 3, "key": key, "retry": 30]), options: options))
            #expect(events.map(\.id) == (1...10).map(String.init))
            let stats = try await stats(sandbox, key)
            #expect(stats.lastEventIDs == ["3", "6", "9"])
            #expect(stats.connections == 4)
        }
    }

    @Test("no reconnect after a normal end, and a 204 means stop")
    func normalEnd() async throws {
        try await withSandbox { sandbox in
            let key = "end-\(UUID().uuidString.prefix(8))"
            let options = EventStreamOptions(reconnect: .init(delay: .milliseconds(10), minimumDelay: .milliseconds(10)))
            #expect(try await collect(NetworkClient().events(sse(sandbox, ["count": 3, "key": key]), options: options)).count == 3)
            var past = sse(sandbox, ["count": 3, "key": key])
            past.headers = ["Last-Event-ID": "3"]
            #expect(try await collect(NetworkClient().events(past, options: options)).isEmpty)
            try await Task.sleep(for: .milliseconds(100))
            #expect(try await stats(sandbox, key).connections == 2)
        }
    }

    @Test("silence longer than the idle timeout ends the stream with timedOut; the server sees the close", arguments: TransportKind.allCases)
    func idleTimeout(_ kind: TransportKind) async throws {
        try await withSandbox { sandbox in
            let key = "idle-\(UUID().uuidString.prefix(8))"
            var received = 0
            let start = ContinuousClock.now
            await #expect(throws: NetworkError.networkError(URLError(.timedOut))) {
                for try await _ in NetworkClient(transport: kind.make()).events(
                    sse(sandbox, ["count": 10, "hangAfter": 2, "key": key]),
                    options: EventStreamOptions(idleTimeout: .seconds(3)))
                {
                    received += 1
                }
            }
            #expect(received == 2)
            #expect(ContinuousClock.now - start < .seconds(10), "the server hangs for 120 s")
            await eventually(timeout: .seconds(5)) { (try? await stats(sandbox, key).disconnects) == 1 }
        }
    }

    @Test("over a transport that does not watch for silence (the stock AHC one), the client does: timedOut, resumable")
    func idleTimeoutStockTransport() async throws {
        try await withSandbox { sandbox in
            let key = "stock-idle-\(UUID().uuidString.prefix(8))"
            let client = NetworkClient(transport: OpenAPIAsyncHTTPClient.AsyncHTTPClientTransport())
            var ids: [String] = []
            await #expect(throws: NetworkError.networkError(URLError(.timedOut))) {
                for try await event in client.events(
                    sse(sandbox, ["count": 10, "hangAfter": 2, "key": key]),
                    options: EventStreamOptions(idleTimeout: .seconds(2)))
                {
                    ids.append(event.id ?? "")
                }
            }
            #expect(ids == ["1", "2"])
            // With reconnect, each silent connection is replaced, resuming after the last id.
            let resumed = try await collect(
                client.events(
                    sse(sandbox, ["count": 6, "hangAfter": 2, "key": key + "r"]),
                    options: EventStreamOptions(
                        idleTimeout: .milliseconds(1500), reconnect: .init(delay: .milliseconds(10), minimumDelay: .milliseconds(10)))))
            #expect(resumed.map(\.id) == ["1", "2", "3", "4", "5", "6"])
        }
    }

    @Test("cancelling the consuming task closes the connection and ends in taskCancelled", arguments: TransportKind.allCases)
    func cancel(_ kind: TransportKind) async throws {
        try await withSandbox { sandbox in
            let client = NetworkClient(transport: kind.make())
            let key = "cancel-\(UUID().uuidString.prefix(8))"
            let firstEvent = AsyncStream<Void>.makeStream()
            let task = Task { () async throws(NetworkError) -> Int in
                var count = 0
                for try await _ in client.events(sse(sandbox, ["count": 100, "hangAfter": 1, "key": key])) {
                    count += 1
                    firstEvent.continuation.yield()
                }
                return count
            }
            for await _ in firstEvent.stream { break }
            task.cancel()
            let result = await task.result
            #expect(throws: NetworkError.taskCancelled) { try result.get() }
            await eventually(timeout: .seconds(5)) {
                guard let stats = try? await stats(sandbox, key) else { return false }
                return stats.disconnects == 1 && stats.open == 0
            }
        }
    }

    @Test("an error status ends the stream with its mapped error; a body that is not an event stream is invalidResponse")
    func errors() async throws {
        try await withSandbox { sandbox in
            let client = NetworkClient()
            await #expect(throws: NetworkError.serviceUnavailable(503)) {
                _ = try await collect(client.events(TestEndpoint(baseURL: sandbox.baseURL, path: "/status/503")))
            }
            await #expect(throws: NetworkError.invalidResponse) {
                _ = try await collect(client.events(TestEndpoint(baseURL: sandbox.baseURL, path: "/echo")))
            }
            let refusing = RefusingPort()
            await #expect(throws: NetworkError.networkError(URLError(.cannotConnectToHost))) {
                _ = try await collect(client.events(TestEndpoint(baseURL: refusing.baseURL, path: "/sse/events")))
            }
            withExtendedLifetime(refusing) {}
        }
    }
}
