public import Courier
import CourierTransportCore

/// How ``NetworkClient/events(_:options:)`` reads a stream of server-sent events.
///
/// ```swift
/// // A long-lived feed: reconnect (resuming with Last-Event-ID) when the connection drops,
/// // and treat 45 s of silence as a dead connection.
/// let events = client.events(FeedAPI.live, options: .init(idleTimeout: .seconds(45), reconnect: .init()))
/// ```
public struct EventStreamOptions: Sendable {
    /// No bytes for this long ends the stream with ``NetworkError/networkError(_:)`` `.timedOut`
    /// (or reconnects, with ``reconnect``); nil waits forever. Replaces the whole-call deadline,
    /// which for a stream bounds only the wait for the response head.
    public var idleTimeout: Duration?
    /// Reconnect after a dropped connection; nil (the default) ends the stream with the error.
    public var reconnect: Reconnect?

    /// Options with a 60 s idle timeout and no reconnect.
    public init(idleTimeout: Duration? = .seconds(60), reconnect: Reconnect? = nil) {
        self.idleTimeout = idleTimeout
        self.reconnect = reconnect
    }

    /// When and how a dropped stream is opened again.
    ///
    /// A reconnect sends the last event ID as `Last-Event-ID` and waits the server's `retry:`
    /// time when it sent one, else ``delay`` — never less than ``minimumDelay``, doubled for each
    /// failure in a row, at most ``maxDelay``: a server that answers `retry: 0` and drops every
    /// connection cannot make the client storm it. Only a transport failure (the connection lost
    /// or refused, the idle timeout) reconnects: a stream that ends normally, an error status, a
    /// 204 (the server's "stop"), or the consumer going away ends it for good. A stream opened
    /// with a method that is not idempotent (POST) is not sent again unless
    /// ``replaysNonIdempotent`` says so.
    public struct Reconnect: Sendable {
        /// Wait before reconnecting when the server sent no `retry:`.
        public var delay: Duration
        /// Failed reconnects in a row before giving up; the count restarts once an event arrives.
        public var maxAttempts: Int
        /// The shortest wait, whatever `retry:` says.
        public var minimumDelay: Duration
        /// The longest wait the doubling reaches.
        public var maxDelay: Duration
        /// Whether a stream opened with a non-idempotent method (POST, PATCH) is sent again.
        public var replaysNonIdempotent: Bool

        /// Reconnects after 3 s (browsers' usual default), at most 5 times in a row, never sooner
        /// than 500 ms, doubling up to 60 s; a POST stream is not sent again.
        public init(
            delay: Duration = .seconds(3), maxAttempts: Int = 5, minimumDelay: Duration = .milliseconds(500),
            maxDelay: Duration = .seconds(60), replaysNonIdempotent: Bool = false
        ) {
            self.delay = delay
            self.maxAttempts = maxAttempts
            self.minimumDelay = minimumDelay
            self.maxDelay = maxDelay
            self.replaysNonIdempotent = replaysNonIdempotent
        }

        /// The wait before reconnect number `failures` (1 for the first in a row), given the
        /// server's `retry:` in milliseconds.
        public func wait(failures: Int, serverRetry: Int?) -> Duration {
            let base = max(minimumDelay, serverRetry.map { Duration.milliseconds($0) } ?? delay)
            let doubled = base * (1 << min(max(failures - 1, 0), 20))
            return min(max(doubled, minimumDelay), max(maxDelay, minimumDelay))
        }
    }
}
