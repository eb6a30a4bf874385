import Foundation

/// Per-request facts that travel with the task through middlewares to the transport.
///
/// Middlewares and transports read ``current``; ``NetworkClient`` sets it for each call.
public struct RequestContext: Sendable {
    /// When the whole call must be done (transports that support deadlines honour it).
    public var deadline: ContinuousClock.Instant?
    /// Values that must never be logged (from ``Endpoint/secrets``).
    public var secrets: [String]
    /// The largest response body the client accepts; transports that can stop early do.
    public var maxResponseBytes: Int?

    /// Creates a context.
    public init(deadline: ContinuousClock.Instant? = nil, secrets: [String] = [], maxResponseBytes: Int? = nil) {
        self.deadline = deadline
        self.secrets = secrets
        self.maxResponseBytes = maxResponseBytes
    }

    /// The context of the request this task is sending, if any.
    @TaskLocal public static var current: RequestContext?
}

/// A transport that honours ``RequestContext/deadline`` itself, so ``NetworkClient`` need not
/// race the call against a timer.
public protocol DeadlineAwareTransport: Sendable {}
