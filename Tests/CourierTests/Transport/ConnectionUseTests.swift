import Courier
import CourierAsyncHTTPClient
import CourierObservability
import CourierSandbox
import CourierTransfers
import Foundation
import IntegrationTestSupport
import MetricsTestKit
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Each exchange's connection, new or reused, as the AsyncHTTPClient transport tells it through
/// its connection initializers — checked against the connections the sandbox accepted.
@Suite("Connections: new or reused, in each exchange's timeline, counted by the sandbox too")
struct ConnectionUseTests {
    struct Echo: Decodable {
        var headers: [String: String]
    }

    /// The `connection` events of `timeline`, in order.
    static func connections(_ timeline: CallTimeline) -> [(number: UInt64, reused: Bool)] {
        timeline.steps.compactMap { if case .connection(let number, let reused) = $0.kind { (number, reused) } else { nil } }
    }

    /// Whether the echoed request carried the marker the transport uses (it must never).
    static func sawMarker(_ echo: Echo) -> Bool {
        echo.headers.keys.contains { $0.lowercased() == "x-courier-exchange" }
    }

    /// One call to `/echo` recorded in a timeline of its own.
    static func echo(_ client: NetworkClient, _ sandbox: RunningSandbox, headers: [String: String] = [:]) async throws -> (Echo, CallTimeline) {
        let timeline = CallTimeline()
        var endpoint = sandbox.get("/echo")
        endpoint.headers = headers
        let echo = try await client.recording(into: timeline).request(endpoint, as: Echo.self)
        return (echo, timeline)
    }

    @Test("HTTP/1.1: the first call opens a connection, the next ones reuse it; after `Connection: close` the next opens another")
    func reusedAndClosed() async throws {
        try await withSandbox { sandbox in
            let transport = HTTPClientTransport()
            let client = NetworkClient(transport: transport)
            var seen: [(number: UInt64, reused: Bool)] = []
            for index in 0..<4 {
                let (echo, timeline) = try await Self.echo(client, sandbox, headers: index == 2 ? ["Connection": "close"] : [:])
                #expect(!Self.sawMarker(echo), "the marker never reaches the server")
                seen += Self.connections(timeline)
                // In the exchange, between its start and its head.
                let kinds = timeline.steps.map(\.kind)
                let started = kinds.firstIndex { if case .attemptStarted = $0 { true } else { false } }
                let connected = kinds.firstIndex { if case .connection = $0 { true } else { false } }
                let head = kinds.firstIndex { if case .responseHead = $0 { true } else { false } }
                #expect(started != nil && connected != nil && head != nil && started! < connected! && connected! < head!, "\(kinds)")
                #expect(timeline.steps.first { if case .connection = $0.kind { true } else { false } }?.attempt == 1)
                if index == 0 {
                    #expect(timeline.waterfall().contains("#1 connection #\(seen[0].number) new: connected (+"), "\(timeline.waterfall())")
                } else if index == 1 {
                    #expect(timeline.waterfall().contains("#1 connection #\(seen[0].number) reused (+"), "\(timeline.waterfall())")
                }
            }
            #expect(seen.map(\.reused) == [false, true, true, false], "\(seen)")
            #expect(seen[0].number == seen[1].number && seen[1].number == seen[2].number && seen[3].number != seen[0].number)
            #expect(sandbox.acceptedConnections == 2, "the sandbox accepted \(sandbox.acceptedConnections)")
            try await transport.shutdown()
        }
    }

    @Test("calls at once: one new connection each, as many as the sandbox accepted; a later call reuses one of them")
    func concurrent() async throws {
        try await withSandbox { sandbox in
            let transport = HTTPClientTransport()
            let client = NetworkClient(transport: transport)
            let seen = try await withThrowingTaskGroup(of: [(number: UInt64, reused: Bool)].self) { group in
                for _ in 0..<3 {
                    group.addTask {
                        let timeline = CallTimeline()
                        _ = try await client.recording(into: timeline).response(sandbox.get("/delay/200"))
                        return Self.connections(timeline)
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            #expect(seen.count == 3 && seen.allSatisfy { !$0.reused }, "\(seen)")
            #expect(Set(seen.map(\.number)).count == 3)
            #expect(sandbox.acceptedConnections == 3)
            let (_, later) = try await Self.echo(client, sandbox)
            let again = try #require(Self.connections(later).first)
            #expect(again.reused && seen.contains { $0.number == again.number }, "\(again) after \(seen)")
            try await transport.shutdown()
        }
    }

    @Test("a stream's exchange is told its connection too; metrics count new and reused exchanges")
    func streamsAndMetrics() async throws {
        try await withSandbox { sandbox in
            let transport = HTTPClientTransport()
            let metrics = TestMetrics()
            var configuration = NetworkClient.Configuration(transport: transport)
            configuration.observers = [MetricsObserver(factory: metrics)]
            let client = NetworkClient(configuration: configuration)
            let timeline = CallTimeline()
            for try await _ in client.recording(into: timeline).lines(sandbox.get("/ndjson", query: ["count": 3])) {}
            #expect(Self.connections(timeline).map(\.reused) == [false], "\(timeline.steps.map(\.kind))")
            _ = try await client.response(sandbox.get("/echo"))
            _ = try await client.response(sandbox.get("/echo"))
            await eventually("connections counted") {
                (try? metrics.expectCounter("courier.client.connections", [("outcome", "reused")]).totalValue) == 1
            }
            // Streams keep a pool of their own: the stream and the first buffered call each opened one.
            #expect(try metrics.expectCounter("courier.client.connections", [("outcome", "new")]).totalValue == 2)
            #expect(sandbox.acceptedConnections == 2)
            try await transport.shutdown()
        }
    }

    @Test("HTTP/2: the first call opens the connection; calls at once after it are streams of that one connection")
    func http2() async throws {
        let certificates = try await TestCertificates.shared.value
        try await TLSTransportTests.sandbox(certificates, http2: true) { sandbox in
            let (client, transport) = try TLSTransportTests.client(TLSSettings(roots: .only(pem: certificates.caPEM)))
            let (echo, first) = try await Self.echo(client, sandbox)
            #expect(!Self.sawMarker(echo))
            let opened = try #require(Self.connections(first).first)
            #expect(!opened.reused)
            let seen = try await withThrowingTaskGroup(of: [(number: UInt64, reused: Bool)].self) { group in
                for _ in 0..<5 {
                    group.addTask {
                        let (echo, timeline) = try await Self.echo(client, sandbox)
                        #expect(!Self.sawMarker(echo))
                        return Self.connections(timeline)
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            #expect(seen.count == 5 && seen.allSatisfy { $0.reused && $0.number == opened.number }, "\(seen)")
            #expect(sandbox.acceptedConnections == 1)
            try await transport.shutdown()
        }
    }

    @Test("transports that cannot tell record nothing and send no marker: URLSession, and an HTTPClient of your own")
    func unknown() async throws {
        try await withSandbox { sandbox in
            let session = URLSessionClientTransport(session: URLSession(configuration: .ephemeral))
            let (viaSession, sessionTimeline) = try await Self.echo(NetworkClient(transport: session), sandbox)
            #expect(!Self.sawMarker(viaSession) && Self.connections(sessionTimeline).isEmpty)
            let own = HTTPClientTransport(client: HTTPClientTransport.shared.client)
            let (viaOwn, ownTimeline) = try await Self.echo(NetworkClient(transport: own), sandbox)
            #expect(!Self.sawMarker(viaOwn) && Self.connections(ownTimeline).isEmpty)
            #expect(sessionTimeline.steps.contains { if case .responseHead(200) = $0.kind { true } else { false } })
        }
    }
}
