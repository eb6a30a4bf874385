public import Courier

/// When a ``CircuitBreakerMiddleware`` opens, how long it stays open, and what counts as a failure.
///
/// The defaults are Polly's (`CircuitBreakerStrategyOptions`), each for a reason: a ratio of 0.1
/// over at least 100 calls in 30 s opens only on a failure rate no healthy origin shows and never
/// on a handful of unlucky calls at low traffic; 5 s open is long enough for a restarting origin to
/// breathe, short enough that users see it come back within a few seconds.
///
/// ```swift
/// var policy = CircuitBreakerPolicy()
/// policy.minimumThroughput = 20            // a low-traffic app: decide on fewer calls
/// policy.breakDuration = .seconds(10)
/// ```
public struct CircuitBreakerPolicy: Sendable {
    /// What a call ended in, for ``isFailure``.
    public enum Outcome: Sendable, Equatable {
        /// An answer with this status code arrived.
        case status(Int)
        /// The call threw before an answer (already mapped: `URLError` codes, cancellation …).
        case error(NetworkError)
    }

    /// The share of failed calls in the window (0…1) at or over which the breaker opens: 0.1.
    public var failureRatio: Double
    /// Calls the window must hold before the ratio means anything: 100.
    public var minimumThroughput: Int
    /// How far back the window looks: 30 s.
    public var samplingDuration: Duration
    /// How long the breaker stays open before it lets one probe through: 5 s.
    public var breakDuration: Duration
    /// Buckets the window is kept in (its resolution is `samplingDuration / buckets`): 10.
    public var buckets: Int
    /// Origins tracked at most; the least recently used one is forgotten to make room: 256.
    public var maxOrigins: Int
    /// Whether an outcome counts as a failure; ``defaultIsFailure(_:)`` unless set.
    public var isFailure: @Sendable (Outcome) -> Bool

    /// A policy with Polly's defaults unless given.
    public init(
        failureRatio: Double = 0.1,
        minimumThroughput: Int = 100,
        samplingDuration: Duration = .seconds(30),
        breakDuration: Duration = .seconds(5),
        buckets: Int = 10,
        maxOrigins: Int = 256,
        isFailure: @escaping @Sendable (Outcome) -> Bool = CircuitBreakerPolicy.defaultIsFailure
    ) {
        self.failureRatio = failureRatio.isNaN ? 0.1 : min(1, max(0, failureRatio))
        self.minimumThroughput = max(1, minimumThroughput)
        self.samplingDuration = max(.milliseconds(1), samplingDuration)
        self.breakDuration = max(.zero, breakDuration)
        self.buckets = min(1000, max(1, buckets))
        self.maxOrigins = max(1, maxOrigins)
        self.isFailure = isFailure
    }

    /// The default: a 5xx answer, or a transport failure (refused, reset, DNS, TLS, timed out —
    /// any `NetworkError.networkError`) or a 5xx thrown as an error. Never a 4xx: the origin
    /// answered, the call was wrong. Never cancellation: the caller left, the origin said nothing.
    @Sendable public static func defaultIsFailure(_ outcome: Outcome) -> Bool {
        switch outcome {
        case .status(let code): code >= 500 && code <= 599
        case .error(.networkError), .error(.serviceUnavailable), .error(.serverError): true
        case .error: false
        }
    }
}
