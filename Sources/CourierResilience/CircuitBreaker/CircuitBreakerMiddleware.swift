import Courier
public import CourierTransportCore
public import Foundation
public import HTTPTypes
public import Logging
public import OpenAPIRuntime
import Synchronization

/// A circuit breaker per origin: when an origin keeps failing, calls to it fail at once with
/// `NetworkError.circuitOpen(retryAt:)` — no connection, no wait — until the break is over; then
/// one probe goes through, and its answer closes the breaker or opens it again.
///
/// ```swift
/// let breaker = CircuitBreakerMiddleware()
/// let client = NetworkClient(configuration: .init(middlewares: [RetryMiddleware(), breaker]))
/// // later, for a banner: "service unavailable, retrying at …"
/// if case .open(let until) = breaker.state(for: server) { showBanner(retryingAt: until) }
/// ```
///
/// Closed, it counts each call's outcome per origin over ``CircuitBreakerPolicy/samplingDuration``
/// and opens when at least ``CircuitBreakerPolicy/minimumThroughput`` calls were seen and the share
/// of failures (``CircuitBreakerPolicy/isFailure``: transport errors, timeouts and 5xx by default,
/// never 4xx) reaches ``CircuitBreakerPolicy/failureRatio``. Open for
/// ``CircuitBreakerPolicy/breakDuration``; then half-open: exactly one call is sent as a probe while
/// the others are refused; its success closes the breaker (a fresh window), its failure opens it
/// again, its cancellation lets the next call probe.
///
/// Put it after `RetryMiddleware` (nearer the transport), so that each attempt counts and a refused
/// attempt is not retried. State is kept for at most ``CircuitBreakerPolicy/maxOrigins`` origins in
/// a fixed number of buckets each. Transitions are logged at `.notice`.
public final class CircuitBreakerMiddleware: ClientMiddleware, CallMiddleware, Sendable {
    /// An origin's breaker, as an app would show it.
    public enum State: Sendable, Equatable {
        /// Calls go through and are counted.
        case closed
        /// Calls fail at once until `until`.
        case open(until: Date)
        /// The break is over: the next call (or the one in flight) is the probe.
        case halfOpen
    }

    /// When to open, for how long, and what counts as a failure.
    public let policy: CircuitBreakerPolicy
    /// Where transitions are logged.
    public let logger: Logger
    private let book: Mutex<CircuitBook>
    private let elapsed: @Sendable () -> Duration
    private let wallClock: @Sendable () -> Date

    /// A breaker with `policy`; `clock` (for windows and breaks) and `wallClock` (for the dates in
    /// errors and ``state(for:)``) are injectable so tests run without sleeping.
    public init(
        policy: CircuitBreakerPolicy = CircuitBreakerPolicy(),
        logger: Logger = Logger(label: "courier.breaker"),
        clock: some Clock<Duration> = ContinuousClock(),
        wallClock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.policy = policy
        self.logger = logger
        self.book = Mutex(CircuitBook(policy: policy))
        let start = clock.now
        self.elapsed = { start.duration(to: clock.now) }
        self.wallClock = wallClock
    }

    /// The breaker of the origin `url` belongs to (scheme, host and port; the path is ignored).
    public func state(for url: URL) -> State {
        let now = elapsed().milliseconds
        switch book.withLock({ $0.phase(of: OriginKey(url), nowMs: now) }) {
        case .closed: return .closed
        case .halfOpen: return .halfOpen
        case .open(let until): return .open(until: date(inMs: until - now))
        }
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
        let probe: Bool
        switch book.withLock({ $0.admit(origin, nowMs: elapsed().milliseconds) }) {
        case .refuse(let retryIn):
            context?.recorder?.record(.breaker(.rejected))
            throw NetworkError.circuitOpen(retryAt: date(inMs: retryIn))
        case .send(let isProbe):
            probe = isProbe
            if isProbe {
                context?.recorder?.record(.breaker(.probe))
                logger.notice("circuit half-open: probing", metadata: ["origin": "\(origin.text)"])
            }
        }
        do {
            let answer = try await next(request, body, baseURL)
            record(origin, probe: probe, outcome: .status(answer.0.status.code), context)
            return answer
        } catch {
            let failure = NetworkError(error)
            record(origin, probe: probe, outcome: Task.isCancelled || failure == .taskCancelled ? nil : .error(failure), context)
            throw error
        }
    }

    /// Counts the call's outcome; a transition it caused is logged and noted in its timeline.
    private func record(_ origin: OriginKey, probe: Bool, outcome: CircuitBreakerPolicy.Outcome?, _ context: CallContext?) {
        let failure = outcome.map(policy.isFailure)
        let (before, after) = book.withLock { book in
            let now = elapsed().milliseconds
            let before = book.phase(of: origin, nowMs: now)
            book.record(origin, probe: probe, failure: failure, nowMs: now)
            return (before, book.phase(of: origin, nowMs: now))
        }
        guard before != after else { return }
        switch after {
        case .open(let until):
            context?.recorder?.record(.breaker(.opened))
            logger.notice("circuit opened", metadata: ["origin": "\(origin.text)", "retryAt": "\(date(inMs: until - elapsed().milliseconds))"])
        case .closed:
            context?.recorder?.record(.breaker(.closed))
            logger.notice("circuit closed", metadata: ["origin": "\(origin.text)"])
        case .halfOpen: break
        }
    }

    private func date(inMs milliseconds: Int64) -> Date {
        wallClock().addingTimeInterval(Double(max(0, milliseconds)) / 1000)
    }
}
