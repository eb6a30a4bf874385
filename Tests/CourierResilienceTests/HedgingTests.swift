import Courier
import CourierObservability
import CourierTransportCore
import Foundation
import HTTPTypes
import IntegrationTestSupport
import OpenAPIRuntime
import Synchronization
import Testing

@testable import CourierResilience

/// The hedging middleware without sockets: which calls it hedges, the race, the budget, the delay.
@Suite("Hedged requests", .tags(.timing))
struct HedgingTests {
    private static let fast = HedgingPolicy(delay: .fixed(.milliseconds(5)))

    @Test("a slow GET gets a hedge; the hedge's answer wins and the first attempt is cancelled")
    func hedgeWins() async throws {
        let origin = SlowFirstOrigin(firstTakes: .seconds(30))
        let middleware = HedgingMiddleware(policy: Self.fast)
        let started = ContinuousClock.now
        let (response, _) = try await middleware.intercept(
            FakeOrigin.request, body: nil, baseURL: FakeOrigin.url, operationID: "get", next: origin.next)
        #expect(response.headerFields[.init("X-Copy")!] == "2", "the hedge answered")
        #expect(ContinuousClock.now - started < .seconds(10), "not the first attempt's 30 s")
        #expect(origin.reached == 2)
        #expect(origin.cancelled == 1, "the losing first attempt was cancelled")
    }

    @Test("the first attempt's answer wins when it comes before the hedge's; the hedge is cancelled")
    func firstWins() async throws {
        // Copy 1 takes 60 ms, copy 2 (the hedge, sent at 5 ms) 30 s.
        let origin = SlowFirstOrigin(firstTakes: .milliseconds(60), laterTake: .seconds(30))
        let middleware = HedgingMiddleware(policy: Self.fast)
        let (response, _) = try await middleware.intercept(
            FakeOrigin.request, body: nil, baseURL: FakeOrigin.url, operationID: "get", next: origin.next)
        #expect(response.headerFields[.init("X-Copy")!] == "1")
        #expect(origin.reached == 2 && origin.cancelled == 1, "the hedge went out and was cancelled")
    }

    @Test("a keyless POST is sent once; a POST with an Idempotency-Key is hedged")
    func writes() async throws {
        var post = FakeOrigin.request
        post.method = .post
        let keyless = SlowFirstOrigin(firstTakes: .milliseconds(80))
        _ = try await HedgingMiddleware(policy: Self.fast).intercept(
            post, body: HTTPBody("{}"), baseURL: FakeOrigin.url, operationID: "create", next: keyless.next)
        #expect(keyless.reached == 1, "a keyless write is never sent twice")

        post.headerFields[RetryMiddleware.idempotencyKey] = "\"8e3c1f0a-5b7d-4c2e-9f61-2a4b6c8d0e1f\""
        let keyed = SlowFirstOrigin(firstTakes: .seconds(30))
        _ = try await HedgingMiddleware(policy: Self.fast).intercept(
            post, body: HTTPBody("{}"), baseURL: FakeOrigin.url, operationID: "create", next: keyed.next)
        #expect(keyed.reached == 2)
        #expect(keyed.bodies == ["{}", "{}"], "the hedge carries the same body")
    }

    @Test("a body that cannot be read twice is sent once")
    func oneShotBody() async throws {
        let origin = SlowFirstOrigin(firstTakes: .milliseconds(80))
        let stream = AsyncStream<ArraySlice<UInt8>> { continuation in
            continuation.yield(ArraySlice("chunk".utf8))
            continuation.finish()
        }
        var put = FakeOrigin.request
        put.method = .put
        _ = try await HedgingMiddleware(policy: Self.fast).intercept(
            put, body: HTTPBody(stream, length: .unknown, iterationBehavior: .single), baseURL: FakeOrigin.url,
            operationID: "upload", next: origin.next)
        #expect(origin.reached == 1)
    }

    @Test("an endpoint opts out with hedged: false; onlyWhenAsked hedges only hedged: true")
    func traits() async throws {
        let off = SlowFirstOrigin(firstTakes: .milliseconds(80))
        _ = try await HedgingMiddleware(policy: Self.fast).intercept(
            FakeOrigin.request, body: nil, baseURL: FakeOrigin.url, operationID: "get",
            context: CallContext(traits: CallTraits(hedged: false)), next: off.next)
        #expect(off.reached == 1)

        let askedOnly = HedgingPolicy(delay: .fixed(.milliseconds(5)), onlyWhenAsked: true)
        let unasked = SlowFirstOrigin(firstTakes: .milliseconds(80))
        _ = try await HedgingMiddleware(policy: askedOnly).intercept(
            FakeOrigin.request, body: nil, baseURL: FakeOrigin.url, operationID: "get", context: CallContext(), next: unasked.next)
        #expect(unasked.reached == 1)
        let asked = SlowFirstOrigin(firstTakes: .seconds(30))
        _ = try await HedgingMiddleware(policy: askedOnly).intercept(
            FakeOrigin.request, body: nil, baseURL: FakeOrigin.url, operationID: "get",
            context: CallContext(traits: CallTraits(hedged: true)), next: asked.next)
        #expect(asked.reached == 2)
    }

    @Test("hedges never exceed the budget: five at first, then one per ten successful calls")
    func budget() async throws {
        let middleware = HedgingMiddleware(policy: Self.fast)
        let origin = SlowFirstOrigin(firstTakes: .milliseconds(25), laterTake: .milliseconds(25))
        let calls = 60
        for _ in 0..<calls {
            _ = try await middleware.intercept(FakeOrigin.request, body: nil, baseURL: FakeOrigin.url, operationID: "get", next: origin.next)
        }
        let hedges = origin.reached - calls
        #expect(hedges >= 5, "every call was slow enough for a hedge: \(hedges)")
        // Five while the bucket is over half full (a success's 0.1 back between them lets a sixth
        // through), then one per ten successes: never the 60 an unbudgeted hedger sends.
        #expect(Double(hedges) <= 5 + 0.1 * Double(calls) + 2, "\(hedges) hedges for \(calls) calls")
    }

    @Test("a shared retry budget that is spent stops hedges")
    func sharedBudgetSpent() async throws {
        let budget = RetryPolicy.Budget(maxTokens: 10)
        for _ in 0..<10 { budget.recordFailure() }
        let origin = SlowFirstOrigin(firstTakes: .milliseconds(60))
        _ = try await HedgingMiddleware(policy: Self.fast, budget: budget).intercept(
            FakeOrigin.request, body: nil, baseURL: FakeOrigin.url, operationID: "get", next: origin.next)
        #expect(origin.reached == 1)
    }

    @Test("a first attempt that fails before the delay is returned as it is, without a hedge")
    func earlyFailure() async throws {
        let origin = FakeOrigin()
        await #expect(throws: URLError.self) {
            _ = try await HedgingMiddleware(policy: HedgingPolicy(delay: .fixed(.seconds(5)))).intercept(
                FakeOrigin.request, body: nil, baseURL: FakeOrigin.url, operationID: "get",
                next: origin.failing(URLError(.cannotConnectToHost)))
        }
        #expect(origin.reached == 1)
    }

    @Test("the adaptive delay: the fallback until 20 latencies are known, then the origin's p95")
    func adaptiveDelay() async throws {
        let middleware = HedgingMiddleware(policy: HedgingPolicy(delay: .adaptive(fallback: .seconds(10))))
        #expect(middleware.delay(for: FakeOrigin.url) == .seconds(10))
        var sketch = LatencySketch(window: 256)
        for milliseconds in 1...100 { sketch.add(.milliseconds(milliseconds)) }
        let p95 = try #require(sketch.percentile(0.95))
        #expect(p95 >= .milliseconds(95) && p95 <= .microseconds(106_875), "within a bucket's 12.5%: \(p95)")
        for _ in 0..<256 { sketch.add(.milliseconds(3)) }
        let recent = try #require(sketch.percentile(0.95))
        #expect(sketch.count == 256 && recent < .milliseconds(4), "the window forgets the old latencies: \(recent)")
        sketch.add(.seconds(Int64.max))
        #expect(sketch.percentile(1.0) != nil, "a huge latency saturates")

        let origin = SlowFirstOrigin(firstTakes: .milliseconds(2), laterTake: .milliseconds(2))
        for call in 1...25 {
            _ = try await middleware.intercept(FakeOrigin.request, body: nil, baseURL: FakeOrigin.url, operationID: "get", next: origin.next)
            if call == 19 { #expect(middleware.delay(for: FakeOrigin.url) == .seconds(10), "19 latencies are not enough") }
        }
        let learned = middleware.delay(for: FakeOrigin.url)
        #expect(learned < .seconds(2), "learned from 25 answers of ~2 ms (a loaded machine may stretch a few): \(learned)")
        #expect(origin.reached == 25, "no call was slow enough for a hedge")
    }

    @Test("the timeline shows the hedge sent and which attempt won; metrics count them")
    func timeline() async throws {
        let origin = SlowFirstOrigin(firstTakes: .seconds(30))
        let client = NetworkClient(
            transport: OriginTransport(origin), middlewares: [HedgingMiddleware(policy: Self.fast)])
        let timeline = CallTimeline()
        _ = try await client.recording(into: timeline).response(try #require(URLEndpoint(URL(string: "https://api.example.com/v1/items")!)))
        let kinds = timeline.steps.map(\.kind)
        #expect(kinds.contains(.hedgeSent(delay: .milliseconds(5))))
        #expect(kinds.contains(.hedgeWon(byHedge: true)))
        let heads = timeline.steps.filter { if case .responseHead = $0.kind { true } else { false } }
        #expect(heads.map(\.attempt) == [2], "the head is the hedge's, exchange 2")
        let failed = timeline.steps.filter { if case .attemptFailed = $0.kind { true } else { false } }
        #expect(failed.map(\.attempt) == [1], "the cancelled first attempt is exchange 1")
        #expect(timeline.waterfall().contains("hedge won"))
    }
}

/// An origin whose first request takes `firstTakes` and every later one `laterTake` (so a hedge
/// of the first call is fast); it counts the requests that reached it and the ones cancelled while
/// they waited.
final class SlowFirstOrigin: Sendable {
    private let firstTakes: Duration
    private let laterTake: Duration
    private let state = Mutex((reached: 0, cancelled: 0, bodies: [String](), copy: 0))

    init(firstTakes: Duration, laterTake: Duration = .zero) {
        self.firstTakes = firstTakes
        self.laterTake = laterTake
    }

    var reached: Int { state.withLock { $0.reached } }
    var cancelled: Int { state.withLock { $0.cancelled } }
    var bodies: [String] { state.withLock { $0.bodies } }

    var next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?) {
        { _, body, _ in
            let copy = self.state.withLock { state in
                state.reached += 1
                state.copy += 1
                return state.copy
            }
            if let body {
                let text = try await String(collecting: body, upTo: 1024)
                self.state.withLock { $0.bodies.append(text) }
            }
            let wait = copy == 1 ? self.firstTakes : self.laterTake
            do {
                try await Task.sleep(for: wait)
            } catch {
                self.state.withLock { $0.cancelled += 1 }
                throw error
            }
            return (HTTPResponse(status: .ok, headerFields: [.init("X-Copy")!: String(copy)]), nil)
        }
    }
}

/// A transport that answers from a ``SlowFirstOrigin``.
private struct OriginTransport: ClientTransport {
    let origin: SlowFirstOrigin
    init(_ origin: SlowFirstOrigin) { self.origin = origin }
    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        try await origin.next(request, body, baseURL)
    }
}
