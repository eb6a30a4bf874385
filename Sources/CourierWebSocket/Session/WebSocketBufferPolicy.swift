#if WebSocket  // the `WebSocket` trait: Package.swift
/// What a ``WebSocketSession`` does when messages arrive faster than its reader takes them.
///
/// The buffer is full at `limit` messages or at the client's
/// ``WebSocketConfiguration/receiveBufferBytes`` bytes, whichever comes first (one message is
/// always taken, however large), so a flood of big messages cannot grow memory without bound.
public enum WebSocketBufferPolicy: Sendable, Equatable {
    /// Keep up to `limit` messages; then stop reading the socket until the reader catches up
    /// (nothing is lost; the server is slowed down by TCP back-pressure, and pings are answered
    /// late). Meanwhile a dropped connection is noticed, and re-dialled, only once the reader has
    /// taken enough to make room.
    case suspend(limit: Int)
    /// Keep the newest `limit` messages; drop the oldest when full — as many as a new message
    /// needs room for (for tickers, where only the latest price matters). Drops are counted in
    /// ``WebSocketSession/droppedMessages``.
    case dropOldest(limit: Int)

    var limit: Int {
        switch self {
        case .suspend(let limit), .dropOldest(let limit): max(limit, 1)
        }
    }
}
#endif  // WebSocket
