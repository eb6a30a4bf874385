#if WebSocket  // the `WebSocket` trait: Package.swift
public import Courier

/// Where a ``WebSocketSession`` is, as its `states` stream reports it.
public enum WebSocketSessionState: Sendable, Equatable {
    /// Dialling; `attempt` counts attempts since the last stable connection (1 = the first).
    case connecting(attempt: Int)
    /// Connected and subscribed (the `onConnect` hook has run).
    case connected
    /// The last attempt failed or the connection ended; the next attempt, number `attempt`,
    /// starts `after` this long. `reason` is what ended the previous one.
    case reconnecting(attempt: Int, after: Duration, reason: NetworkError)
    /// Over for good: nil when the caller closed or cancelled, the last failure when the
    /// policy gave up (or the failure cannot be retried, such as an invalid URL).
    case closed(NetworkError?)
}
#endif  // WebSocket
