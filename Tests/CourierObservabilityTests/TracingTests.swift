import Courier
import CourierObservability
import CourierSandbox
import Foundation
import InMemoryTracing
import IntegrationTestSupport
import OpenAPIRuntime
import Testing
import Tracing
import W3CTraceContext

/// `TracingOptions` recorded with swift-distributed-tracing's `InMemoryTracer` (passed in, no
/// global bootstrap), over real sockets; the sandbox reports the `traceparent` each attempt carried.
@Suite("Tracing: a span per call and per exchange, OpenTelemetry's attributes, W3C traceparent on every attempt")
struct TracingTests {
    static func key() -> String { "tracing-\(UUID().uuidString.prefix(8))" }

    static func client(_ tracer: any Tracer, middlewares: [any ClientMiddleware] = []) -> NetworkClient {
        var configuration = NetworkClient.Configuration(middlewares: middlewares)
        configuration.tracing = TracingOptions(tracer: tracer)
        return NetworkClient(configuration: configuration)
    }

    /// A `traceparent`'s trace id and span id (version 00, sampled), or nil when malformed.
    static func ids(_ traceParent: String) -> (trace: String, span: String)? {
        let parts = traceParent.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        let hex = CharacterSet(charactersIn: "0123456789abcdef")
        guard parts.count == 4, parts[0] == "00", parts[1].count == 32, parts[2].count == 16, parts[3] == "01",
            parts[1].unicodeScalars.allSatisfy(hex.contains), parts[2].unicodeScalars.allSatisfy(hex.contains)
        else { return nil }
        return (parts[1], parts[2])
    }

    static func string(_ span: FinishedInMemorySpan, _ name: String) -> String? {
        if case .string(let value)? = span.attributes.get(name) { value } else { nil }
    }

    static func int(_ span: FinishedInMemorySpan, _ name: String) -> Int64? {
        switch span.attributes.get(name) {
        case .int64(let value)?: value
        case .int32(let value)?: Int64(value)
        default: nil
        }
    }

    static func traceParents(_ events: [CallStep]) -> [String] {
        events.compactMap { if case .traceContext(let value) = $0.kind { value } else { nil } }
    }

    @Test("a plain call: an internal span under the caller's, one client span with the HTTP attributes (secrets redacted), one W3C traceparent sent")
    func plainCall() async throws {
        try await withSandbox { sandbox in
            let tracer = InMemoryTracer()
            let client = Self.client(tracer)
            let endpoint = TestEndpoint(
                baseURL: sandbox.baseURL, path: "/echo/s3cr3t-path-key", task: .requestParameters(["api_key": "abc123xyz"], encoding: .url),
                secrets: ["s3cr3t-path-key"])
            let timeline = CallTimeline()
            let echo = try await tracer.withSpan("handler") { _ in
                try await client.recording(into: timeline).request(endpoint, as: Echo.self)
            }
            let spans = tracer.finishedSpans
            let handler = try #require(spans.first { $0.operationName == "handler" })
            let call = try #require(spans.first { $0.kind == .internal && $0.operationName == "GET" })
            let exchange = try #require(spans.first { $0.kind == .client })
            #expect(spans.count == 3, "\(spans.map(\.operationName))")
            #expect(call.parentSpanID == handler.spanID && call.traceID == handler.traceID)
            #expect(exchange.parentSpanID == call.spanID && exchange.traceID == call.traceID)
            #expect(exchange.operationName == "GET")
            let port = Int64(try #require(sandbox.baseURL.port))
            for span in [call, exchange] {
                #expect(Self.string(span, "http.request.method") == "GET")
                #expect(Self.string(span, "server.address") == "127.0.0.1")
                #expect(Self.int(span, "server.port") == port)
                #expect(Self.int(span, "http.response.status_code") == 200)
                let url = try #require(Self.string(span, "url.full"))
                #expect(url.contains("/echo/") && !url.contains("s3cr3t-path-key") && !url.contains("abc123xyz"), "\(url)")
                #expect(span.attributes.get("error.type") == nil && span.status == nil)
            }
            #expect(exchange.attributes.get("http.request.resend_count") == nil)
            // The server saw one W3C traceparent, the one the timeline recorded, and none of the tracer's own fields.
            let sent = try #require(echo.headers["traceparent"])
            #expect(Self.ids(sent) != nil, "\(sent)")
            #expect(try TraceContext(traceParentHeaderValue: sent).traceParentHeaderValue == sent, "swift-w3c-trace-context reads it back as it was")
            #expect(Self.traceParents(timeline.steps) == [sent])
            #expect(echo.headers["tracestate"] == nil)
            #expect(!echo.headers.keys.contains { $0.hasPrefix("in-memory") }, "\(echo.headers.keys.sorted())")
            #expect(timeline.waterfall().contains("#1 traceparent \(sent)"))
        }
    }

    @Test(
        "a retried call: a client span per attempt (503 with error.type, then resend_count 1), the retry an event of the call's span; every attempt's traceparent: one trace id, a new span id"
    )
    func retriedCall() async throws {
        try await withSandbox { sandbox in
            let tracer = InMemoryTracer()
            let retry = RetryMiddleware(
                policy: RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(10)), budget: RetryPolicy.Budget(), random: { 1 })
            let client = Self.client(tracer, middlewares: [retry])
            let key = Self.key()
            let timeline = CallTimeline()
            _ = try await client.recording(into: timeline).response(sandbox.get("/flaky/\(key)", query: ["failures": 2]))
            let spans = tracer.finishedSpans
            let call = try #require(spans.first { $0.kind == .internal })
            let exchanges = spans.filter { $0.kind == .client }.sorted {
                $0.startInstant.nanosecondsSinceEpoch < $1.startInstant.nanosecondsSinceEpoch
            }
            try #require(exchanges.count == 3, "\(spans.map(\.operationName))")
            #expect(exchanges.allSatisfy { $0.parentSpanID == call.spanID && $0.traceID == call.traceID })
            #expect(Set(exchanges.map(\.spanID)).count == 3)
            #expect(exchanges.map { Self.int($0, "http.response.status_code") } == [503, 503, 200])
            #expect(exchanges.map { Self.string($0, "error.type") } == ["503", "503", nil])
            #expect(exchanges.map { $0.status?.code } == [.error, .error, nil])
            #expect(exchanges.map { Self.int($0, "http.request.resend_count") } == [nil, 1, 2])
            // A retried attempt's span ends at its head, before the retry's delay.
            #expect(exchanges[0].endInstant.nanosecondsSinceEpoch <= exchanges[1].startInstant.nanosecondsSinceEpoch)
            let retries = call.events.filter { $0.name == "courier.retry.scheduled" }
            #expect(retries.count == 2)
            if case .string(let reason)? = retries.first?.attributes.get("courier.retry.reason") {
                #expect(reason == "status 503")
            } else {
                Issue.record("no retry reason: \(retries)")
            }
            #expect(retries.first?.attributes.get("courier.retry.delay_ms") == .int64(10))
            #expect(Self.int(call, "http.response.status_code") == 200 && call.status == nil)
            // What the server saw, attempt by attempt.
            let stats = try await NetworkClient().request(sandbox.get("/flaky/\(key)/stats"), as: FlakyStats.self)
            #expect(stats.traceParents == Self.traceParents(timeline.steps))
            let ids = stats.traceParents.compactMap(Self.ids)
            for traceParent in stats.traceParents {
                #expect(try TraceContext(traceParentHeaderValue: traceParent).traceParentHeaderValue == traceParent)
            }
            #expect(ids.count == 3, "\(stats.traceParents)")
            #expect(Set(ids.map(\.trace)).count == 1)
            #expect(Set(ids.map(\.span)).count == 3)
            // The next call is another trace.
            let other = CallTimeline()
            _ = try await client.recording(into: other).response(sandbox.get("/flaky/\(key)"))
            let next = try #require(Self.traceParents(other.steps).first.flatMap(Self.ids))
            #expect(next.trace != ids.first?.trace)
        }
    }

    @Test(
        "redirects: each hop is a client span of the call (302, 302, 200; resend_count 1, 2), each redirect an event, each hop its own traceparent of the one trace"
    )
    func redirects() async throws {
        try await withSandbox { sandbox in
            let tracer = InMemoryTracer()
            let timeline = CallTimeline()
            _ = try await Self.client(tracer).recording(into: timeline).response(sandbox.get("/redirect/2"))
            let spans = tracer.finishedSpans
            let hops = spans.filter { $0.kind == .client }.sorted { $0.startInstant.nanosecondsSinceEpoch < $1.startInstant.nanosecondsSinceEpoch }
            let call = try #require(spans.first { $0.kind == .internal })
            #expect(hops.map { Self.int($0, "http.response.status_code") } == [302, 302, 200])
            #expect(hops.map { Self.int($0, "http.request.resend_count") } == [nil, 1, 2])
            #expect(hops.compactMap { Self.string($0, "url.full") }.map { URL(string: $0)?.path } == ["/redirect/2", "/redirect/1", "/redirect/0"])
            #expect(call.events.filter { $0.name == "courier.redirect" }.count == 2)
            let ids = Self.traceParents(timeline.steps).compactMap(Self.ids)
            #expect(ids.count == 3 && Set(ids.map(\.trace)).count == 1 && Set(ids.map(\.span)).count == 3, "\(ids)")
        }
    }

    @Test("a failure: the refused exchange's span and the call's carry error.type and an error status, and no status code")
    func failure() async throws {
        let tracer = InMemoryTracer()
        let refusing = RefusingPort()
        await #expect(throws: NetworkError.self) {
            try await Self.client(tracer).response(TestEndpoint(baseURL: refusing.baseURL, path: "/x"))
        }
        let spans = tracer.finishedSpans
        let call = try #require(spans.first { $0.kind == .internal })
        let exchange = try #require(spans.first { $0.kind == .client })
        for span in [call, exchange] {
            #expect(Self.string(span, "error.type") == "cannotConnectToHost", "\(span.attributes)")
            #expect(span.status?.code == .error)
            #expect(span.attributes.get("http.response.status_code") == nil)
        }
        #expect(tracer.activeSpans.isEmpty, "every span ended")
    }

    @Test("a tracer that speaks W3C: its own trace and span ids, and its tracestate, go on the wire")
    func w3cTracer() async throws {
        try await withSandbox { sandbox in
            let tracer = W3CInMemoryTracer()
            let client = Self.client(tracer)
            let echo = try await client.request(sandbox.get("/echo"), as: Echo.self)
            let exchange = try #require(tracer.memory.finishedSpans.first { $0.kind == .client })
            #expect(echo.headers["traceparent"] == "00-\(exchange.traceID)-\(exchange.spanID)-01")
            #expect(echo.headers["tracestate"] == "courier=test")
        }
    }

    @Test("without tracing options nothing is sent")
    func off() async throws {
        try await withSandbox { sandbox, client in
            let echo = try await client.request(sandbox.get("/echo"), as: Echo.self)
            #expect(echo.headers["traceparent"] == nil && echo.headers["tracestate"] == nil)
        }
    }
}

/// An in-memory tracer whose ids are W3C's (hex) and which injects `traceparent` and `tracestate`,
/// as swift-otel's tracer does.
struct W3CInMemoryTracer: Tracer {
    let memory = InMemoryTracer(
        idGenerator: .init(
            nextTraceID: { (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 1...255)) }.joined() },
            nextSpanID: { (0..<8).map { _ in String(format: "%02x", UInt8.random(in: 1...255)) }.joined() }))

    func startSpan<Instant: TracerInstant>(
        _ operationName: String, context: @autoclosure () -> ServiceContext, ofKind kind: SpanKind, at instant: @autoclosure () -> Instant,
        function: String, file fileID: String, line: UInt
    ) -> InMemorySpan {
        memory.startSpan(operationName, context: context(), ofKind: kind, at: instant(), function: function, file: fileID, line: line)
    }

    func forceFlush() {}

    func inject<Carrier, Inject: Injector>(_ context: ServiceContext, into carrier: inout Carrier, using injector: Inject)
    where Inject.Carrier == Carrier {
        guard let span = context.inMemorySpanContext else { return }
        injector.inject("00-\(span.traceID)-\(span.spanID)-01", forKey: "traceparent", into: &carrier)
        injector.inject("courier=test", forKey: "tracestate", into: &carrier)
        injector.inject(span.traceID, forKey: "x-vendor-trace", into: &carrier)
    }

    func extract<Carrier, Extract: Extractor>(_ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract)
    where Extract.Carrier == Carrier {}
}
