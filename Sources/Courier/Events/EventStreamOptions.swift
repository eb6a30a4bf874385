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
    /// time when it sent one, else ``delay``. Only a transport failure (the connection lost or
    /// refused, the idle timeout) reconnects: a stream that ends normally, an error status, a 204
    /// (the server's "stop"), or the consumer going away ends it for good.
    public struct Reconnect: Sendable {
        /// Wait before reconnecting when the server sent no `retry:`.
        public var delay: Duration
        /// Failed reconnects in a row before giving up; the count restarts once an event arrives.
        public var maxAttempts: Int

        /// Reconnects after 3 s (browsers' usual default), at most 5 times in a row.
        public init(delay: Duration = .seconds(3), maxAttempts: Int = 5) {
            self.delay = delay
            self.maxAttempts = maxAttempts
        }
    }
}
