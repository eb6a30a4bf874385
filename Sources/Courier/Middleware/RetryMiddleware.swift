public import Foundation
public import HTTPTypes
public import Logging
public import OpenAPIRuntime

/// Tries a call again when the failure is likely to pass: a refused, dropped or timed-out
/// connection, or 429/502/503/504 — with exponential backoff and full jitter, honouring
/// `Retry-After` (seconds or an HTTP date), within a ``RetryPolicy/Budget`` shared by the client.
///
/// ```swift
/// let client = NetworkClient(configuration: .init(middlewares: [
///     RetryMiddleware(policy: RetryPolicy(maxAttempts: 4)),
///     LoggingMiddleware(logger: logger),
/// ]))
/// ```
///
/// It never retries a non-idempotent call (POST, PATCH) unless the request carries an
/// `Idempotency-Key` header (minted by the client for an endpoint that sets
/// `CallTraits.wantsIdempotencyKey`: ``NetworkClient/IdempotencyKeys``) — then with
/// ``RetryPolicy/keyedWriteStatuses``, never on 400 or 422 — or its endpoint says it is
/// idempotent (`CallTraits.idempotent`);
/// never after cancellation; and never when the wait plus another attempt as long as the last
/// would end after the call's deadline. The body is replayed when it can be read again (bytes, a
/// form, a file); a one-shot stream is never buffered for a replay: such a call is sent once. Each retry is logged at `.notice`, secrets redacted, with its reason and delay.
public struct RetryMiddleware: ClientMiddleware, CallMiddleware {
    /// When to retry and how long to wait.
    public var policy: RetryPolicy
    /// The budget retries are taken from; nil retries without limit (per call, up to
    /// ``RetryPolicy/maxAttempts``).
    public let budget: RetryPolicy.Budget?
    /// Where retries are logged.
    public var logger: Logger
    private let sleep: @Sendable (Duration) async throws -> Void
    private let random: @Sendable () -> Double

    /// A middleware with `policy` and its own `budget`; `clock` and `random` (0..<1) are
    /// injectable so tests can run backoffs instantly and predictably.
    public init(
        policy: RetryPolicy = RetryPolicy(),
        budget: RetryPolicy.Budget? = RetryPolicy.Budget(),
        logger: Logger = Logger(label: "courier.retry"),
        clock: some Clock<Duration> = ContinuousClock(),
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.policy = policy
        self.budget = budget
        self.logger = logger
        self.sleep = { try await clock.sleep(for: $0) }
        self.random = random
    }

    /// `Idempotency-Key`: a request carrying it may be retried whatever its method.
    public static let idempotencyKey = HTTPField.Name("Idempotency-Key")!

    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        try await intercept(request, body: body, baseURL: baseURL, operationID: operationID, context: CallContext.current, next: next)
    }

    package func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        context: CallContext?,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let traits = context?.traits ?? CallTraits()
        let statuses: Set<Int>
        let keyed: Bool
        if traits.isIdempotent(request.method) {
            (statuses, keyed) = (policy.retryableStatuses, false)
        } else if request.headerFields[policy.idempotencyKeyHeader] != nil {
            (statuses, keyed) = (policy.keyedWriteStatuses, true)
        } else {
            return try await next(request, body, baseURL)  // a write without a key is sent once
        }
        guard policy.maxAttempts > 1 else { return try await next(numbered(request, 1), body, baseURL) }
        let (body, replayable) = try await ReplayableBody.make(body)
        guard replayable else { return try await next(numbered(request, 1), body, baseURL) }
        var attempt = 1
        while true {
            let started = ContinuousClock.now
            let outcome: Result<(HTTPResponse, HTTPBody?), any Error>
            do {
                outcome = .success(try await next(numbered(request, attempt), body, baseURL))
            } catch {
                outcome = .failure(error)
            }
            // The caller has gone: its answer is taskCancelled, whatever this attempt got.
            if Task.isCancelled { throw CancellationError() }
            guard let failure = classify(outcome, statuses: statuses, keyed: keyed) else {
                if case .success = outcome { budget?.recordSuccess() }
                return try outcome.get()
            }
            budget?.recordFailure()
            let delay: Duration
            switch decide(failure, attempt: attempt, attemptTook: ContinuousClock.now - started, deadline: context?.deadline) {
            case .giveUp(let why):
                if let why {
                    log(request, baseURL, context, "not retrying: \(why)", failure, attempt: attempt)
                    context?.recorder?.record(.retryAbandoned(reason: "\(why) (\(failure.reason))"))
                }
                return try outcome.get()
            case .wait(let wait):
                delay = wait
            }
            log(request, baseURL, context, "retrying", failure, attempt: attempt, delay: delay)
            context?.recorder?.record(.retryScheduled(reason: failure.reason, delay: delay, budgetLeft: budget?.available))
            try await sleep(delay)
            attempt += 1
        }
    }

    /// Why an attempt failed in a way worth retrying.
    private struct Failure {
        let reason: String
        let retryAfter: RetryAfter
    }

    /// nil when the outcome is final (a success, a non-retryable status or error, cancellation).
    /// A keyed write is also retried on `badServerResponse`: URLSession on Linux (libcurl) reports a
    /// connection closed before any answer ("empty reply") so, and the key makes a resend safe.
    private func classify(_ outcome: Result<(HTTPResponse, HTTPBody?), any Error>, statuses: Set<Int>, keyed: Bool) -> Failure? {
        switch outcome {
        case .success(let (response, _)):
            guard statuses.contains(response.status.code) else { return nil }
            return Failure(reason: "status \(response.status.code)", retryAfter: response.retryAfter)
        case .failure(let error):
            guard !Task.isCancelled, case .networkError(let urlError) = NetworkError(error),
                policy.retryableErrors.contains(urlError.code) || (keyed && urlError.code == .badServerResponse)
            else { return nil }
            return Failure(reason: "\(NetworkError.networkError(urlError).logDescription)", retryAfter: .absent)
        }
    }

    /// `request` with ``RetryPolicy/attemptHeader`` set to `attempt`, when the policy names one.
    private func numbered(_ request: HTTPRequest, _ attempt: Int) -> HTTPRequest {
        guard let header = policy.attemptHeader else { return request }
        var request = request
        request.headerFields[header] = String(attempt)
        return request
    }

    private enum Decision {
        case wait(Duration)
        /// Stop; the reason is logged when there is one worth telling.
        case giveUp(String?)
    }

    private func decide(_ failure: Failure, attempt: Int, attemptTook: Duration, deadline: ContinuousClock.Instant?) -> Decision {
        if attempt >= policy.maxAttempts { return .giveUp("\(attempt) attempts made") }
        if let budget, !budget.allowsRetry { return .giveUp("retry budget exhausted") }
        var delay = policy.backoff(retry: attempt, random: random())
        switch failure.retryAfter {
        case .absent: break
        case .unreadable: return .giveUp("Retry-After is unreadable")
        case .seconds(let seconds):
            let asked = Duration.seconds(seconds)
            if asked > policy.maxRetryAfter { return .giveUp("Retry-After \(seconds) s is over the limit") }
            delay = asked
        }
        if let deadline, ContinuousClock.now + delay + attemptTook > deadline {
            return .giveUp("another attempt would end after the call's deadline")
        }
        return .wait(delay)
    }

    private func log(
        _ request: HTTPRequest, _ baseURL: URL, _ context: CallContext?, _ message: String, _ failure: Failure,
        attempt: Int, delay: Duration? = nil
    ) {
        let redactor = Redactor(secrets: context?.secrets ?? [])
        var metadata: Logger.Metadata = [
            "method": "\(request.method.rawValue)",
            "attempt": "\(attempt)",
            "reason": "\(redactor.text(failure.reason))",
            "url": "\(redactor.url(URLJoin.join(baseURL, request.path ?? "/")))",
        ]
        if let delay { metadata["delayMs"] = "\(delay.milliseconds)" }
        logger.notice("\(message)", metadata: metadata)
    }
}
