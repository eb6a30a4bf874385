import Foundation

/// Per-request facts that travel with the task through middlewares to the transport.
///
/// Middlewares and transports read ``current``; ``NetworkClient`` sets it for each call.
public struct RequestContext: Sendable {
    /// When the whole call must be done (transports that support deadlines honour it).
    public var deadline: ContinuousClock.Instant?
    /// Values that must never be logged (from ``Endpoint/secrets``).
    public var secrets: [String]

    /// Creates a context.
    public init(deadline: ContinuousClock.Instant? = nil, secrets: [String] = []) {
        self.deadline = deadline
        self.secrets = secrets
    }

    /// The context of the request this task is sending, if any.
    @TaskLocal public static var current: RequestContext?
}

/// A transport that honours ``RequestContext/deadline`` itself, so ``NetworkClient`` need not
/// race the call against a timer.
public protocol DeadlineAwareTransport: Sendable {}
