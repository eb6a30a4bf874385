public import Foundation
public import HTTPTypes

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// When ``RetryMiddleware`` tries a call again, and how long it waits.
///
/// The defaults follow AWS's "standard" retry mode: 3 attempts in all, exponential backoff with
/// full jitter (a random wait between zero and `baseDelay × 2ⁿ⁻¹`, at most `maxDelay`), so that
/// many clients failing together do not come back together.
public struct RetryPolicy: Sendable {
    /// Attempts in all, the first included (3: one call, two retries).
    public var maxAttempts: Int
    /// The backoff's scale: the n-th retry waits a random time below `baseDelay × 2ⁿ⁻¹`.
    public var baseDelay: Duration
    /// No backoff is longer than this.
    public var maxDelay: Duration
    /// A `Retry-After` longer than this is not waited for: the answer is handed back instead.
    public var maxRetryAfter: Duration
    /// Statuses worth another attempt (the server is overloaded or a gateway failed).
    public var retryableStatuses: Set<Int>
    /// Transport failures worth another attempt (the connection failed, dropped or timed out).
    public var retryableErrors: Set<URLError.Code>
    /// Statuses worth another attempt for a write that carries an idempotency key (the draft's
    /// table): 408, 409 (the first request with the key is still being processed), 425, 429 and
    /// every 5xx. Never 400 (a key required and missing) or 422 (the key reused with another
    /// payload): those end the call as `NetworkError.remoteError`.
    public var keyedWriteStatuses: Set<Int>
    /// The field that makes a non-idempotent request retriable (`Idempotency-Key`).
    public var idempotencyKeyHeader: HTTPField.Name
    /// A field set on every attempt to its number, 1 for the first (e.g. `x-courier-attempt`), so
    /// a server can tell which attempt it sees; nil (the default) sends none.
    public var attemptHeader: HTTPField.Name?

    /// A policy; every parameter has the default described above.
    public init(
        maxAttempts: Int = 3,
        baseDelay: Duration = .milliseconds(500),
        maxDelay: Duration = .seconds(20),
        maxRetryAfter: Duration = .seconds(60),
        retryableStatuses: Set<Int> = [429, 502, 503, 504],
        retryableErrors: Set<URLError.Code> = RetryPolicy.transientErrors,
        keyedWriteStatuses: Set<Int> = RetryPolicy.defaultKeyedWriteStatuses,
        idempotencyKeyHeader: HTTPField.Name = HTTPField.Name("Idempotency-Key")!,
        attemptHeader: HTTPField.Name? = nil
    ) {
        self.maxAttempts = maxAttempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.maxRetryAfter = maxRetryAfter
        self.retryableStatuses = retryableStatuses
        self.retryableErrors = retryableErrors
        self.keyedWriteStatuses = keyedWriteStatuses
        self.idempotencyKeyHeader = idempotencyKeyHeader
        self.attemptHeader = attemptHeader
    }

    /// 408, 409, 425, 429 and 500–599: the default ``keyedWriteStatuses``.
    public static let defaultKeyedWriteStatuses: Set<Int> = Set([408, 409, 425, 429]).union(500..<600)

    /// Refused, reset or dropped connections, timeouts, no network, name lookup failures.
    public static let transientErrors: Set<URLError.Code> = [
        .cannotConnectToHost, .networkConnectionLost, .timedOut, .notConnectedToInternet,
        .cannotFindHost, .dnsLookupFailed,
    ]

    /// The wait before retry number `retry` (1 for the first), with `random` in 0..<1.
    public func backoff(retry: Int, random: Double) -> Duration {
        let exponent = min(max(retry - 1, 0), 30)
        let ceiling = min(maxDelay, baseDelay * (1 << exponent))
        return ceiling * min(max(random, 0), 1)
    }
}
