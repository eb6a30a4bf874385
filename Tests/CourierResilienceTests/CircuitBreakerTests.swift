import Courier
import CourierTesting
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

@testable import CourierResilience

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The breaker's transitions under a test clock: no sleeps, no sockets.
@Suite("Circuit breaker: closed, open, half-open")
struct CircuitBreakerTests {
    static let wallNow = Date(timeIntervalSince1970: 1_000_000)

    /// Opens at half of at least 4 calls in 10 s, for 5 s.
    static func breaker(_ clock: RecordingClock, maxOrigins: Int = 256) -> CircuitBreakerMiddleware {
        let policy = CircuitBreakerPolicy(failureRatio: 0.5, minimumThroughput: 4, samplingDuration: .seconds(10), maxOrigins: maxOrigins)
        return CircuitBreakerMiddleware(policy: policy, clock: clock, wallClock: { wallNow })
    }

    @discardableResult
    static func call(
        _ breaker: CircuitBreakerMiddleware, _ next: @escaping @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?),
        to url: URL = FakeOrigin.url
    ) async throws -> Int {
        try await breaker.intercept(FakeOrigin.request, body: nil, baseURL: url, operationID: "op", context: nil, next: next).0.status.code
    }

    /// Opens `breaker` with four 503s.
    static func open(_ breaker: CircuitBreakerMiddleware, _ origin: FakeOrigin) async throws {
        for _ in 0..<4 { try await call(breaker, origin.answering(503)) }
    }

    @Test("opens at the failure ratio only once the minimum number of calls is seen; an open breaker refuses at once with its retry time")
    func opensAtThreshold() async throws {
        let clock = RecordingClock()
        let breaker = Self.breaker(clock)
        let origin = FakeOrigin()
        for _ in 0..<3 { try await Self.call(breaker, origin.answering(503)) }
        #expect(breaker.state(for: FakeOrigin.url) == .closed, "3 failures of 3 calls: under the minimum of 4")
        try await Self.call(breaker, origin.answering(200))
        let retryAt = Self.wallNow.addingTimeInterval(5)
        #expect(breaker.state(for: FakeOrigin.url) == .open(until: retryAt), "3 of 4 failed: over the ratio")
        await #expect(throws: NetworkError.circuitOpen(retryAt: retryAt)) { try await Self.call(breaker, origin.answering(200)) }
        #expect(origin.reached == 4, "the refused call never reached the origin")
        #expect(NetworkError.circuitOpen(retryAt: retryAt).family == .server)
        #expect(
            breaker.state(for: URL(string: "https://API.example.com:443/other")!) == .open(until: retryAt), "one breaker per origin, not per path")
        #expect(breaker.state(for: URL(string: "http://api.example.com")!) == .closed, "another scheme is another origin")
        try await clock.sleep(for: .seconds(2))
        await #expect(throws: NetworkError.circuitOpen(retryAt: Self.wallNow.addingTimeInterval(3))) {
            try await Self.call(breaker, origin.answering(200))
        }
    }

    @Test("after the break exactly one probe goes through while the others are refused; its success closes the breaker")
    func probeSuccessCloses() async throws {
        let clock = RecordingClock()
        let breaker = Self.breaker(clock)
        let origin = FakeOrigin()
        try await Self.open(breaker, origin)
        try await clock.sleep(for: .seconds(5))
        #expect(breaker.state(for: FakeOrigin.url) == .halfOpen)
        let (gate, release) = AsyncStream<Void>.makeStream()
        let probe = Task { try await Self.call(breaker, origin.answering(200, gate: gate)) }
        await origin.untilHeld(1)
        for _ in 0..<3 {
            await #expect(throws: NetworkError.circuitOpen(retryAt: Self.wallNow)) { try await Self.call(breaker, origin.answering(200)) }
        }
        #expect(origin.reached == 5, "four failures and the probe")
        release.yield()
        #expect(try await probe.value == 200)
        #expect(breaker.state(for: FakeOrigin.url) == .closed)
        try await Self.call(breaker, origin.answering(503))
        #expect(breaker.state(for: FakeOrigin.url) == .closed, "a fresh window: one failure is under the minimum")
    }

    @Test("a failed probe opens the breaker again for another break")
    func probeFailureReopens() async throws {
        let clock = RecordingClock()
        let breaker = Self.breaker(clock)
        let origin = FakeOrigin()
        try await Self.open(breaker, origin)
        try await clock.sleep(for: .seconds(5))
        await #expect(throws: URLError.self, "the transport's own error passes through") {
            try await Self.call(breaker, origin.failing(URLError(.timedOut)))
        }
        let retryAt = Self.wallNow.addingTimeInterval(5)
        #expect(breaker.state(for: FakeOrigin.url) == .open(until: retryAt), "open for another 5 s from the probe's failure")
        await #expect(throws: NetworkError.circuitOpen(retryAt: retryAt)) { try await Self.call(breaker, origin.answering(200)) }
        #expect(origin.reached == 5)
    }

    @Test("4xx answers and cancellations never count; timeouts and refused connections do")
    func whatCounts() async throws {
        let clock = RecordingClock()
        let breaker = Self.breaker(clock)
        let origin = FakeOrigin()
        for status in [400, 401, 404, 409, 422, 429, 404, 400] { try await Self.call(breaker, origin.answering(status)) }
        for _ in 0..<4 { _ = try? await Self.call(breaker, origin.failing(CancellationError())) }
        #expect(breaker.state(for: FakeOrigin.url) == .closed, "eight 4xx and four cancellations: no failure")
        for error in [URLError(.timedOut), URLError(.cannotConnectToHost)] {
            for _ in 0..<4 { _ = try? await Self.call(breaker, origin.failing(error)) }
        }
        guard case .open = breaker.state(for: FakeOrigin.url) else {
            Issue.record("8 transport failures of 16 counted calls should open it: \(breaker.state(for: FakeOrigin.url))")
            return
        }
        #expect(CircuitBreakerPolicy.defaultIsFailure(.status(500)) && CircuitBreakerPolicy.defaultIsFailure(.status(503)))
        #expect(!CircuitBreakerPolicy.defaultIsFailure(.status(499)) && !CircuitBreakerPolicy.defaultIsFailure(.error(.taskCancelled)))
    }

    @Test("failures older than the window are forgotten")
    func slidingWindow() async throws {
        let clock = RecordingClock()
        let breaker = Self.breaker(clock)
        let origin = FakeOrigin()
        for _ in 0..<3 { try await Self.call(breaker, origin.answering(503)) }
        try await clock.sleep(for: .seconds(11))
        try await Self.call(breaker, origin.answering(503))
        #expect(breaker.state(for: FakeOrigin.url) == .closed, "the first three slid out of the 10 s window")
    }

    @Test("origins are tracked up to a cap, the least recently used forgotten first")
    func boundedOrigins() async throws {
        let clock = RecordingClock()
        let breaker = Self.breaker(clock, maxOrigins: 2)
        let origin = FakeOrigin()
        try await Self.open(breaker, origin)
        try await Self.call(breaker, origin.answering(200), to: URL(string: "https://b.example.com")!)
        #expect(breaker.state(for: FakeOrigin.url) != .closed)
        try await Self.call(breaker, origin.answering(200), to: URL(string: "https://c.example.com")!)
        #expect(breaker.state(for: FakeOrigin.url) == .closed, "api.example.com was the least recently used of three")
    }

    @Test("circuitOpen has user messages in Korean and English and a log line")
    func messages() {
        let error = NetworkError.circuitOpen(retryAt: Date().addingTimeInterval(4.2))
        #expect(error.userMessage(in: .korean).contains("초 후 다시 시도해 주세요"))
        #expect(error.userMessage(in: .english).contains("unavailable"))
        #expect(error.caseName == "circuitOpen" && error.statusCode == nil)
        #expect(error.log().hasPrefix("circuitOpen(retryAt: "))
    }
}
