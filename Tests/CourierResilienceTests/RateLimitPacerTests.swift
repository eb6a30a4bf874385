import Courier
import CourierTesting
import CourierTransportCore
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

@testable import CourierResilience

/// The pacer under a test clock: held until the reset, refused when the deadline is too short,
/// and the announced budget spent by calls in flight.
@Suite("Rate-limit pacer")
struct RateLimitPacerTests {
    static let spent: HTTPFields = [
        HTTPField.Name("x-ratelimit-remaining-requests")!: "0", HTTPField.Name("x-ratelimit-reset-requests")!: "2s",
    ]

    static func call(
        _ pacer: RateLimitPacer, _ next: @escaping @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?),
        deadline: ContinuousClock.Instant? = nil
    ) async throws -> Int {
        let context = CallContext(deadline: deadline)
        return try await pacer.intercept(FakeOrigin.request, body: nil, baseURL: FakeOrigin.url, operationID: "op", context: context, next: next).0
            .status.code
    }

    @Test("a spent budget holds the next call until the announced reset plus the margin, on the injected clock")
    func holdsUntilReset() async throws {
        let clock = RecordingClock()
        let pacer = RateLimitPacer(clock: clock)
        let origin = FakeOrigin()
        #expect(try await Self.call(pacer, origin.answering(200, headers: Self.spent)) == 200)
        #expect(clock.sleeps.isEmpty)
        #expect(try await Self.call(pacer, origin.answering(200)) == 200)
        #expect(clock.sleeps == [.milliseconds(2100)], "2 s announced + 100 ms margin")
        #expect(try await Self.call(pacer, origin.answering(200)) == 200)
        #expect(clock.sleeps.count == 1, "the next window's budget is unknown: not held")
        #expect(origin.reached == 3)
    }

    @Test("a call whose deadline ends before the reset fails at once with rateLimited, never reaching the origin")
    func deadlineTooShort() async throws {
        let clock = RecordingClock()
        let pacer = RateLimitPacer(clock: clock)
        let origin = FakeOrigin()
        _ = try await Self.call(pacer, origin.answering(200, headers: Self.spent))
        let started = ContinuousClock.now
        await #expect(throws: NetworkError.rateLimited(retryAfter: 2.1)) {
            try await Self.call(pacer, origin.answering(200), deadline: .now + .seconds(1))
        }
        #expect(ContinuousClock.now - started < .seconds(1))
        #expect(clock.sleeps.isEmpty && origin.reached == 1)
        // A deadline past the reset waits.
        #expect(try await Self.call(pacer, origin.answering(200), deadline: .now + .seconds(3)) == 200)
        #expect(clock.sleeps == [.milliseconds(2100)])
    }

    @Test("a wait longer than maxWait fails at once")
    func maxWait() async throws {
        let clock = RecordingClock()
        let pacer = RateLimitPacer(maxWait: .seconds(1), clock: clock)
        let origin = FakeOrigin()
        _ = try await Self.call(pacer, origin.answering(200, headers: Self.spent))
        await #expect(throws: NetworkError.rateLimited(retryAfter: 2.1)) { try await Self.call(pacer, origin.answering(200)) }
    }

    @Test("the announced remaining count is spent by every call in flight when it arrives and by every call sent since")
    func inFlightSpendsBudget() async throws {
        let clock = RecordingClock()
        let pacer = RateLimitPacer(clock: clock)
        let origin = FakeOrigin()
        // One gate each: an AsyncStream has one iterator at a time.
        let gates = (0..<2).map { _ in AsyncStream<Void>.makeStream() }
        let held = gates.map { gate in Task { try await Self.call(pacer, origin.answering(200, gate: gate.stream)) } }
        await origin.untilHeld(2)
        // Two calls are out; this answer says 3 are left: 3 - 2 = 1 may still be sent.
        let three: HTTPFields = [
            HTTPField.Name("RateLimit")!: "\"default\";r=3;t=2", HTTPField.Name("RateLimit-Policy")!: "\"default\";q=10;w=2",
        ]
        _ = try await Self.call(pacer, origin.answering(200, headers: three))
        #expect(try await Self.call(pacer, origin.answering(200)) == 200)
        #expect(clock.sleeps.isEmpty, "one was left")
        #expect(try await Self.call(pacer, origin.answering(200)) == 200)
        #expect(clock.sleeps == [.milliseconds(2100)], "none left: held until the reset")
        for gate in gates { gate.continuation.finish() }
        for task in held { _ = try await task.value }
    }

    @Test(
        "the book: the lowest announced count stands; an answer that ended proves its call counted; a new window starts from its limit less calls in flight"
    )
    func book() {
        var book = PacerBook(maxOrigins: 4)
        let key = OriginKey(FakeOrigin.url)
        for _ in 0..<4 { #expect(book.admit(key, nowMs: 0) == .send) }
        book.finish(key, announced: RateLimitHeaders(family: .ietf, remaining: 10, limit: 20, reset: .seconds(2)), nowMs: 10, marginMs: 100)
        #expect(book.peek(key)?.budget == 7, "10 left, less the 3 still out")
        // An older answer (12 left) overtaken by the newer one: its count does not stand, but its
        // call was counted in the 10 (the server counts in arrival order), so it frees its place.
        book.finish(key, announced: RateLimitHeaders(family: .ietf, remaining: 12, limit: 20, reset: .seconds(2)), nowMs: 20, marginMs: 100)
        #expect(book.peek(key)?.budget == 8, "10 left, less the 2 still out")
        // A call that ends unannounced (an error) may have been counted: it keeps its place.
        book.finish(key, announced: nil, nowMs: 25, marginMs: 100)
        #expect(book.peek(key)?.budget == 8)
        for _ in 0..<8 { #expect(book.admit(key, nowMs: 30) == .send) }
        #expect(book.admit(key, nowMs: 40) == .wait(untilMs: 2120), "the later of the two resets")
        #expect(book.admit(key, nowMs: 2120) == .send)
        #expect(book.peek(key)?.budget == 20 - 9 - 1, "the new window's limit less the 9 still out and this one")
        #expect(OriginKey(URL(string: "https://API.example.com:443/x")!) == key)
    }
}
