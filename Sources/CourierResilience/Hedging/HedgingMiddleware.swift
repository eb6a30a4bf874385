public import Courier
public import CourierTransportCore
public import Foundation
public import HTTPTypes
public import Logging
public import OpenAPIRuntime
import Synchronization

/// Hedged requests ("The Tail at Scale"): when an exchange is slower than a delay, a second copy
/// goes out on another connection; the first answer wins and the other is cancelled (its
/// connection closed by the transport). A slow tail then costs about the delay plus one ordinary
/// exchange instead of its whole length.
///
/// ```swift
/// let retry = RetryMiddleware()
/// let client = NetworkClient(configuration: .init(middlewares: [
///     retry, HedgingMiddleware(budget: retry.budget),  // adaptive: the origin's p95
/// ]))
/// ```
///
/// Only calls safe to send twice are hedged: an idempotent method (or an endpoint that says it is
/// idempotent) or a write carrying an `Idempotency-Key`; never a keyless POST or PATCH, a request
/// body that cannot be read twice (a one-shot stream), or a streamed answer (its length is not
/// known from its head). An endpoint opts out with `CallTraits(hedged: false)`; with
/// ``HedgingPolicy/onlyWhenAsked`` only endpoints with `CallTraits(hedged: true)` are hedged.
///
/// Hedges are paid from a `RetryPolicy.Budget`: each takes a token and none is sent while the
/// bucket is at or below half, so they never exceed the budget's ratio (10% of successful calls
/// by default, after a first burst of five). Give it the `RetryMiddleware`'s budget to share one
/// bucket — retries and hedges then draw on the same 10%, and the retry middleware credits the
/// successes; with none, the middleware keeps its own and credits each successful call itself.
///
/// An answer is a head: the first head that is not a 5xx wins. A failure (an error, a 5xx) waits
/// for the other copy when one is in flight; a first attempt that fails before its delay is over
/// is returned as it is (retrying is `RetryMiddleware`'s work). Put it inside `RetryMiddleware` and
/// outside `CircuitBreakerMiddleware`. The timeline shows `hedgeSent` and `hedgeWon`; metrics count
/// both (`MetricsObserver`).
public final class HedgingMiddleware: ClientMiddleware, CallMiddleware, Sendable {
    /// The delay and which calls are hedged.
    public let policy: HedgingPolicy
    /// The bucket hedges are paid from.
    public let budget: RetryPolicy.Budget
    /// Where hedges are logged (`.debug`).
    public let logger: Logger
    private let creditsSuccesses: Bool
    private let sketches: Mutex<OriginTable<LatencySketch>>
    private let elapsed: @Sendable () -> Duration
    private let sleep: @Sendable (Duration) async throws -> Void

    /// A middleware with `policy`, paying hedges from `budget` (nil: a bucket of its own, 10
    /// tokens, 0.1 per success); `clock` is injectable for tests.
    public init(
        policy: HedgingPolicy = HedgingPolicy(),
        budget: RetryPolicy.Budget? = nil,
        logger: Logger = Logger(label: "courier.hedging"),
        clock: some Clock<Duration> = ContinuousClock()
    ) {
        self.policy = policy
        self.budget = budget ?? RetryPolicy.Budget()
        self.creditsSuccesses = budget == nil
        self.logger = logger
        self.sketches = Mutex(OriginTable(capacity: policy.maxOrigins))
        let start = clock.now
        self.elapsed = { start.duration(to: clock.now) }
        self.sleep = { try await clock.sleep(for: $0) }
    }

    /// The delay a call to `url`'s origin would wait now before its hedge.
    public func delay(for url: URL) -> Duration {
        delay(for: OriginKey(url))
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
        guard mayHedge(request, context) else { return try await next(request, body, baseURL) }
        let (body, replayable) = try await ReplayableBody.make(body)
        guard replayable else { return try await next(request, body, baseURL) }
        let origin = OriginKey(baseURL)
        let delay = delay(for: origin)
        let started = elapsed()
        // The race's tasks end before it returns: `next` does not outlive this call.
        let settled = await withoutActuallyEscaping(next) { next in
            await HedgeRace(delay: delay, budget: budget, recorder: context?.recorder, sleep: sleep) {
                try await next(request, body, baseURL)
            }.run()
        }
        if settled.answered {
            let latency = elapsed() - started
            sketches.withLock { $0.with(origin, make: { LatencySketch(window: policy.window) }) { $0.add(latency) } }
            if creditsSuccesses { budget.recordSuccess() }
        }
        if settled.hedged {
            logger.debug(
                "hedged", metadata: ["origin": "\(origin.text)", "delayMs": "\(delay.milliseconds)", "hedgeWon": "\(settled.hedgeWon)"])
        }
        return try settled.outcome.get()
    }

    /// Whether the call is one a hedge may be sent for.
    private func mayHedge(_ request: HTTPRequest, _ context: CallContext?) -> Bool {
        let traits = context?.traits ?? CallTraits()
        if traits.hedged == false || (policy.onlyWhenAsked && traits.hedged != true) { return false }
        if context?.streamsResponse == true { return false }
        return traits.isIdempotent(request.method) || request.headerFields[RetryMiddleware.idempotencyKey] != nil
    }

    private func delay(for origin: OriginKey) -> Duration {
        switch policy.delay {
        case .fixed(let delay):
            return delay
        case .adaptive(let percentile, let fallback, let minimum):
            let known = sketches.withLock { table -> Duration? in
                guard let sketch = table.peek(origin), sketch.count >= policy.minimumSamples else { return nil }
                return sketch.percentile(percentile)
            }
            return max(minimum, known ?? fallback)
        }
    }
}
