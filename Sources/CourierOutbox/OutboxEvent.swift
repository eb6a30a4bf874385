public import Courier

/// What happened to a write, as ``Outbox/events()`` tells an app (to show "sending…", "sent",
/// "could not be sent: …").
public enum OutboxEvent: Sendable {
    /// The write was put in the outbox (journaled, not yet sent).
    case queued(OutboxEntry)
    /// A final 2xx or 3xx answer (the server's, for the app to use: a created resource's id): the
    /// entry left the outbox.
    case delivered(OutboxEntry, NetworkResponse)
    /// A final error answer (or a request that can never be sent): the entry is kept as failed.
    case failed(OutboxEntry)
    /// An attempt that did not deliver it (transport error, 408, 409, 425, 429, 5xx): still
    /// queued, with its ``OutboxEntry/lastError`` and ``OutboxEntry/notBefore``.
    case stillQueued(OutboxEntry)
    /// The entry was dropped by the app.
    case dropped(id: String)
}

/// What became of one write sent through ``Outbox/send(_:headers:)``.
public enum OutboxOutcome: Sendable {
    /// Delivered: the final answer (2xx, or 3xx when redirects are not followed).
    case delivered(OutboxEntry, NetworkResponse)
    /// Failed for good and kept as failed: the answer when one came, and the error it means.
    case failed(OutboxEntry, answer: NetworkResponse?, error: NetworkError)
    /// Still queued — behind an earlier write that could not be delivered, or after a transient
    /// failure (the error, when this write was tried).
    case queued(OutboxEntry, error: NetworkError?)
}

/// What one ``Outbox/flush(headers:)`` did.
public struct OutboxFlushReport: Sendable, Equatable {
    /// The entries delivered, in order.
    public var delivered: [String] = []
    /// The entries that failed for good in this flush.
    public var failed: [String] = []
    /// The entry the flush stopped at (a transient failure: it and every later entry stay queued).
    public var stoppedAt: String?
    /// Entries still queued when the flush ended.
    public var stillQueued = 0

    /// An empty report.
    public init() {}
}
