import Courier
import CourierCache
import CourierObservability
import CourierSandbox
import CourierTransfers
import Foundation
import HTTPTypes
import IntegrationTestSupport
import OpenAPIRuntime
import Synchronization
import Testing

/// The events a call records — its HTTP exchanges and every middleware decision — in each
/// scenario, over real sockets.
@Suite("Call timelines: attempts, retries, de-duplication, cache, tokens, redirects, observers")
struct CallTimelineTests {
    /// The kinds of `events` without their times, one call's.
    static func kinds(_ events: [CallStep]) -> [CallStep.Kind] { events.map(\.kind) }

    static func key() -> String { "timeline-\(UUID().uuidString.prefix(8))" }

    @Test(
        "a retried call: two attempts, the retry's reason, delay and budget between them, then the body and the end",
        arguments: TransportKind.allCases)
    func retried(kind: TransportKind) async throws {
        try await withSandbox { sandbox in
            let retry = RetryMiddleware(
                policy: RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(20)), budget: RetryPolicy.Budget(), random: { 1 })
            let client = NetworkClient(transport: kind.make(), middlewares: [retry])
            let timeline = CallTimeline()
            let endpoint = sandbox.get("/flaky/\(Self.key())", query: ["failures": 1])
            _ = try await client.recording(into: timeline).response(endpoint)
            let events = timeline.steps
            guard events.count > 1, case .attemptStarted(let url) = events[1].kind else {
                Issue.record("no attempt: \(events)")
                return
            }
            // The sandbox keeps the connection open after its 503: the retry reuses it. URLSession
            // cannot tell which connection an exchange used: no connection events there.
            let connection = events.lazy.compactMap { if case .connection(let number, _) = $0.kind { number } else { nil } }.first
            #expect((connection != nil) == (kind == .asyncHTTPClient))
            let first: [CallStep.Kind] = connection.map { [.connection(number: $0, reused: false)] } ?? []
            let second: [CallStep.Kind] = connection.map { [.connection(number: $0, reused: true)] } ?? []
            let expected: [CallStep.Kind] =
                [.callStarted(method: "GET", url: url), .attemptStarted(url: url)] + first
                + [
                    .responseHead(status: 503), .retryScheduled(reason: "status 503", delay: .milliseconds(20), budgetLeft: 9),
                    .attemptStarted(url: url),
                ] + second
                + [.responseHead(status: 200), .bodyDone(bytes: try #require(Self.bodyBytes(events))), .callFinished(status: 200, error: nil)]
            #expect(Self.kinds(events) == expected)
            #expect(events.map(\.attempt) == [0, 1] + first.map { _ in 1 } + [1, 1, 2] + second.map { _ in 2 } + [2, 2, 2])
            #expect(Set(events.map(\.call)).count == 1)
            #expect(zip(events, events.dropFirst()).allSatisfy { $0.at <= $1.at }, "monotonic")
            #expect(try #require(events.last).at - events[0].at >= .milliseconds(20), "the retry's delay is in the timeline")
            let waterfall = timeline.waterfall()
            #expect(waterfall.contains("#1 head 503") && waterfall.contains("#1 retry in 20 ms: status 503 (budget 9.0)"), "\(waterfall)")
            #expect(waterfall.contains("#2 head 200") && waterfall.contains("finished 200"), "\(waterfall)")
        }
    }

    static func bodyBytes(_ events: [CallStep]) -> Int? {
        events.lazy.compactMap { if case .bodyDone(let bytes) = $0.kind { bytes } else { nil } }.first
    }

    @Test("a retry given up: the reason is recorded and the failed call's timeline ends with the error")
    func retryGivenUp() async throws {
        try await withSandbox { sandbox in
            let retry = RetryMiddleware(policy: RetryPolicy(maxAttempts: 2, baseDelay: .milliseconds(5)), budget: nil, random: { 1 })
            let client = NetworkClient(transport: NetworkClient.defaultTransport, middlewares: [retry])
            let timeline = CallTimeline()
            await #expect(throws: NetworkError.self) {
                try await client.recording(into: timeline).response(sandbox.get("/flaky/\(Self.key())", query: ["failures": 5]))
            }
            let kinds = Self.kinds(timeline.steps)
            #expect(kinds.filter { if case .attemptStarted = $0 { true } else { false } }.count == 2)
            #expect(kinds.contains(.retryAbandoned(reason: "2 attempts made (status 503)")), "\(kinds)")
            #expect(kinds.last == .callFinished(status: 503, error: "serviceUnavailable(503)"), "\(kinds)")
        }
    }

    @Test("de-duplication: the joined call records `joined` and no exchange of its own")
    func deduplicated() async throws {
        try await withSandbox { sandbox in
            let client = NetworkClient(transport: NetworkClient.defaultTransport, middlewares: [DeduplicationMiddleware()])
            let endpoint = TestEndpoint(
                baseURL: sandbox.baseURL, path: "/counted/\(Self.key())", task: .requestParameters(["delayMs": 200], encoding: .url))
            let leader = CallTimeline()
            let follower = CallTimeline()
            async let first = client.recording(into: leader).response(endpoint)
            try await Task.sleep(for: .milliseconds(50))
            async let second = client.recording(into: follower).response(endpoint)
            _ = try await (first, second)
            #expect(Self.kinds(leader.steps).filter { if case .attemptStarted = $0 { true } else { false } }.count == 1)
            let kinds = Self.kinds(follower.steps)
            #expect(kinds.count >= 3 && kinds[1] == .joined && kinds.last == .callFinished(status: 200, error: nil), "\(kinds)")
            #expect(!kinds.contains { if case .attemptStarted = $0 { true } else { false } }, "\(kinds)")
        }
    }

    @Test(
        "cache: a miss then stored, a fresh hit without an exchange, a 304 revalidation, a stale answer served on a 503",
        arguments: TransportKind.allCases)
    func cache(kind: TransportKind) async throws {
        try await withSandbox { sandbox in
            let client = NetworkClient(transport: kind.make(), middlewares: [CacheMiddleware()])
            func kinds(_ endpoint: TestEndpoint) async throws -> [CallStep.Kind] {
                let timeline = CallTimeline()
                _ = try await client.recording(into: timeline).response(endpoint)
                // The cache's decisions and the exchanges; which connection carried them is another test's.
                return Self.kinds(timeline.steps).filter {
                    switch $0 {
                    case .callStarted, .connection: false
                    default: true
                    }
                }
            }
            let fresh = sandbox.get("/cache/\(Self.key())", query: ["cc": "max-age=60"])
            let first = try await kinds(fresh)
            #expect(Array(first.prefix(4)) == [.cache(.miss), first[1], .responseHead(status: 200), .cache(.stored)], "\(first)")
            let hit = try await kinds(fresh)
            #expect(hit.first == .cache(.freshHit) && !hit.contains { if case .attemptStarted = $0 { true } else { false } }, "\(hit)")
            let validated = sandbox.get("/cache/\(Self.key())", query: ["cc": "no-cache", "etag": "v1"])
            _ = try await kinds(validated)
            let revalidated = try await kinds(validated)
            #expect(revalidated.contains(.responseHead(status: 304)) && revalidated.contains(.cache(.revalidated)), "\(revalidated)")
            var stale = sandbox.get("/cache/\(Self.key())", query: ["cc": "max-age=0, stale-if-error=60"])
            _ = try await kinds(stale)
            stale.headers = ["X-Set-Status": "503"]
            let served = try await kinds(stale)
            #expect(served.contains(.responseHead(status: 503)) && served.contains(.cache(.staleServed)), "\(served)")
            #expect(served.last == .callFinished(status: 200, error: nil), "the stale 200 answered: \(served)")
        }
    }

    @Test("tokens: a token about to expire is refreshed once; a call arriving during the refresh waits for it; both attach")
    func tokens() async throws {
        try await withSandbox { sandbox in
            let current = Mutex(BearerTokenMiddleware.Token("old", expiresAt: Date().addingTimeInterval(5)))
            let middleware = BearerTokenMiddleware {
                current.withLock { $0 }
            } refresh: { _ in
                try await Task.sleep(for: .milliseconds(150))
                let fresh = BearerTokenMiddleware.Token("new", expiresAt: Date().addingTimeInterval(3600))
                current.withLock { $0 = fresh }
                return fresh
            }
            let client = NetworkClient(transport: NetworkClient.defaultTransport, middlewares: [middleware])
            let first = CallTimeline()
            let second = CallTimeline()
            async let a = client.recording(into: first).response(sandbox.get("/echo"))
            try await Task.sleep(for: .milliseconds(40))
            async let b = client.recording(into: second).response(sandbox.get("/echo"))
            _ = try await (a, b)
            #expect(Self.kinds(first.steps).contains(.token(.refreshed)) && Self.kinds(first.steps).contains(.token(.attached)))
            #expect(Self.kinds(second.steps).contains(.token(.waited)) && Self.kinds(second.steps).contains(.token(.attached)))
        }
    }

    @Test("redirects: every hop is an attempt of its own, with the redirect between", arguments: TransportKind.allCases)
    func redirects(kind: TransportKind) async throws {
        try await withSandbox { sandbox in
            let timeline = CallTimeline()
            _ = try await NetworkClient(transport: kind.make()).recording(into: timeline).response(sandbox.get("/redirect/2"))
            let kinds = Self.kinds(timeline.steps)
            let redirects = kinds.compactMap { if case .redirect(let status, let to) = $0 { "\(status) \(to)" } else { nil } }
            #expect(redirects == ["302 \(sandbox.baseURL.absoluteString)/redirect/1", "302 \(sandbox.baseURL.absoluteString)/redirect/0"])
            #expect(kinds.filter { if case .attemptStarted = $0 { true } else { false } }.count == 3)
            #expect(timeline.steps.last?.attempt == 3)
        }
    }

    @Test("a stream's call ends when its body does: bodyDone with the bytes, then callFinished", arguments: TransportKind.allCases)
    func stream(kind: TransportKind) async throws {
        try await withSandbox { sandbox in
            let timeline = CallTimeline()
            var lines = 0
            for try await _ in NetworkClient(transport: kind.make()).recording(into: timeline).lines(sandbox.get("/ndjson", query: ["count": 3])) {
                lines += 1
            }
            #expect(lines == 3)
            let kinds = Self.kinds(timeline.steps)
            #expect(kinds.suffix(2).first.map { if case .bodyDone(let bytes) = $0 { bytes > 0 } else { false } } == true, "\(kinds)")
            #expect(kinds.last == .callFinished(status: 200, error: nil), "\(kinds)")
        }
    }

    /// Keeps what it is told. With a gate, every `observe` blocks its thread until the gate opens
    /// (the calls must not wait for it).
    final class Collector: CallObserver {
        let seen = Mutex<(events: Int, ended: [[CallStep]])>((0, []))
        let gate: DispatchSemaphore?
        init(gate: DispatchSemaphore? = nil) { self.gate = gate }
        func observe(_ event: CallStep) {
            if let gate {
                gate.wait()
                gate.signal()  // once open, it stays open
            }
            seen.withLock { $0.events += 1 }
        }
        func callEnded(_ events: [CallStep]) { seen.withLock { $0.ended.append(events) } }
    }

    @Test("observers see every event and each call's whole timeline, off the call's path: calls end while an observer is blocked")
    func observers() async throws {
        try await withSandbox { sandbox in
            let collector = Collector()
            let gate = DispatchSemaphore(value: 0)
            let stuck = Collector(gate: gate)
            var configuration = NetworkClient.Configuration(transport: NetworkClient.defaultTransport)
            configuration.observers = [collector, stuck]
            let client = NetworkClient(configuration: configuration)
            // The stuck observer is blocked on its first event and stays blocked while these run:
            // were observers on the calls' path, these calls would never end.
            for _ in 0..<5 { _ = try await client.response(sandbox.get("/echo")) }
            #expect(stuck.seen.withLock { $0.events } == 0, "still blocked")
            gate.signal()
            await eventually("the blocked observer catches up once released") { stuck.seen.withLock { $0.ended.count } == 5 }
            await eventually("the observer saw five calls end") { collector.seen.withLock { $0.ended.count } == 5 }
            let ended = collector.seen.withLock { $0.ended }
            #expect(ended.allSatisfy { $0.first.map { if case .callStarted = $0.kind { true } else { false } } == true })
            #expect(ended.allSatisfy { $0.last?.kind == .callFinished(status: 200, error: nil) })
            #expect(Set(ended.map { $0[0].call }).count == 5, "five calls, five ids")
            #expect(collector.seen.withLock { $0.events } == ended.map(\.count).reduce(0, +))
        }
    }

    @Test("with no observer and no timeline, nothing is recorded (no recorder in the call's context)")
    func off() async throws {
        try await withSandbox { sandbox in
            final class Probe: ClientMiddleware {
                let sawRecorder = Mutex<Bool?>(nil)
                func intercept(
                    _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
                    next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
                ) async throws -> (HTTPResponse, HTTPBody?) {
                    sawRecorder.withLock { $0 = CallContext.current?.recorder != nil }
                    return try await next(request, body, baseURL)
                }
            }
            let probe = Probe()
            let client = NetworkClient(transport: NetworkClient.defaultTransport, middlewares: [probe])
            _ = try await client.response(sandbox.get("/echo"))
            #expect(probe.sawRecorder.withLock { $0 } == false)
            _ = try await client.recording(into: CallTimeline()).response(sandbox.get("/echo"))
            #expect(probe.sawRecorder.withLock { $0 } == true)
        }
    }
}
