import Courier
public import CourierTransportCore
public import Foundation
public import HTTPTypes
public import Logging
public import OpenAPIRuntime
import Synchronization

/// Paces calls by the rate limits an origin announces (``RateLimitHeaders``: the IETF draft,
/// OpenAI, Anthropic, GitHub), so that calls wait for the window's reset instead of collecting 429s.
///
/// ```swift
/// let client = NetworkClient(configuration: .init(middlewares: [RetryMiddleware(), RateLimitPacer()]))
/// ```
///
/// Per origin, each answer's announced remaining count is taken as already spent by every call
/// still in flight, and each call sent afterwards spends one more; when none is left, new calls
/// wait (a `Task.sleep` on the injected clock, no thread held) until the announced reset plus
/// ``margin`` — servers round their resets. A call whose wait would end after its deadline, or
/// last longer than ``maxWait``, fails at once with `NetworkError.rateLimited(retryAfter:)`.
/// An origin that announces nothing is not paced. A 429 still goes to `RetryMiddleware` as before.
/// State is kept for at most `maxOrigins` origins (the least recently used is forgotten).
public final class RateLimitPacer: ClientMiddleware, CallMiddleware, Sendable {
    /// Added to every announced reset: 100 ms by default.
    public let margin: Duration
    /// The longest a call is held; a longer wait fails it at once: 60 s by default.
    public let maxWait: Duration
    /// Where held calls are logged (`.debug`) and refused ones (`.notice`).
    public let logger: Logger
    private let book: Mutex<PacerBook>
    private let elapsed: @Sendable () -> Duration
    private let sleep: @Sendable (Duration) async throws -> Void
    private let wallClock: @Sendable () -> Date

    /// A pacer; `clock` (waits) and `wallClock` (the dates some families announce) are injectable
    /// so tests run without sleeping.
    public init(
        margin: Duration = .milliseconds(100),
        maxWait: Duration = .seconds(60),
        maxOrigins: Int = 256,
        logger: Logger = Logger(label: "courier.pacer"),
        clock: some Clock<Duration> = ContinuousClock(),
        wallClock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.margin = max(.zero, margin)
        self.maxWait = max(.zero, maxWait)
        self.logger = logger
        self.book = Mutex(PacerBook(maxOrigins: maxOrigins))
        let start = clock.now
        self.elapsed = { start.duration(to: clock.now) }
        self.sleep = { try await clock.sleep(for: $0) }
        self.wallClock = wallClock
    }

    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        try await intercept(request, body: body, baseURL: baseURL, operationID: operationID, context: CallContext.current, next: next)
    }

    package func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String, context: CallContext?,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let origin = OriginKey(baseURL)
        let held = try await admit(origin, deadline: context?.deadline)
        if held > .zero { context?.recorder?.record(.paced(wait: held)) }
        let answer: (HTTPResponse, HTTPBody?)
        do {
            answer = try await next(request, body, baseURL)
        } catch {
            finish(origin, nil)
            throw error
        }
        finish(origin, RateLimitHeaders(answer.0.headerFields, now: wallClock()))
        return answer
    }

    /// Returns once the call may be sent (counted in flight) with how long it was held, or throws
    /// `rateLimited` at once.
    private func admit(_ origin: OriginKey, deadline: ContinuousClock.Instant?) async throws -> Duration {
        var held = Duration.zero
        while true {
            let now = elapsed().milliseconds
            guard case .wait(let until) = book.withLock({ $0.admit(origin, nowMs: now) }) else { return held }
            let wait = Duration.milliseconds(max(0, until - now))
            if wait > maxWait || deadline.map({ ContinuousClock.now + wait > $0 }) == true {
                logger.notice(
                    "rate limit: not waiting past the deadline",
                    metadata: ["origin": "\(origin.text)", "waitMs": "\(wait.milliseconds)"])
                throw NetworkError.rateLimited(retryAfter: wait.seconds)
            }
            logger.debug("rate limit spent: waiting", metadata: ["origin": "\(origin.text)", "waitMs": "\(wait.milliseconds)"])
            try await sleep(wait)
            held += wait
        }
    }

    private func finish(_ origin: OriginKey, _ announced: RateLimitHeaders?) {
        let marginMs = margin.milliseconds
        book.withLock { $0.finish(origin, announced: announced, nowMs: elapsed().milliseconds, marginMs: marginMs) }
    }
}
