extension NetworkError {
    /// Why a WebSocket connection failed: the payload of ``NetworkError/webSocketError(_:)``.
    ///
    /// Transport failures (refused connection, DNS, TLS, a connection lost without a close frame)
    /// are ``NetworkError/networkError(_:)`` as for every other request; this type covers what is
    /// particular to the WebSocket protocol.
    ///
    /// ```swift
    /// catch .webSocketError(.closed(let code, _)) where code == 1008 {
    ///     // the server's policy refused the subscription
    /// }
    /// ```
    public enum WebSocketFailure: Sendable, Equatable {
        /// The server answered the opening handshake without switching protocols (a 4xx/5xx answer,
        /// or a 101 without a valid `Sec-WebSocket-Accept`). `status` is the HTTP status when known.
        case handshakeRejected(status: Int?)
        /// The server closed the connection with a close code other than 1000 (normal) or 1001
        /// (going away); `reason` is the server's close reason, if it sent one.
        case closed(code: Int, reason: String?)
        /// No pong arrived within the heartbeat bound (`seconds`), so the connection was considered dead.
        case pingTimeout(seconds: Double)
        /// The peer broke the protocol: a malformed or reserved frame, text that is not UTF-8, a
        /// control frame that is fragmented. Carries the close code Courier sent (1002, 1007 …).
        case protocolViolation(code: Int)
        /// A message larger than the configured limit (bytes) arrived.
        case messageTooLarge(limit: Int)
        /// A message was sent on a connection that is closed or closing.
        case notConnected
        /// A `wss://` connection cannot be made as configured, so it was not dialled (fail closed):
        /// certificate pins (swift-websocket has no place to check them before the opening
        /// handshake's headers are sent), a certificate that is not valid PEM, or an IP address as
        /// the host (swift-websocket sends the host as the TLS server name, which cannot be an address).
        case tlsUnavailable(String)
    }
}

extension NetworkError.WebSocketFailure: CustomStringConvertible {
    /// A one-line developer description, e.g. `closed 1011 "overloaded"`.
    public var description: String {
        switch self {
        case .handshakeRejected(let status): status.map { "handshake rejected (HTTP \($0))" } ?? "handshake rejected"
        case .closed(let code, let reason): reason.map { "closed \(code) \"\($0)\"" } ?? "closed \(code)"
        case .pingTimeout(let seconds): "no pong within \(seconds) s"
        case .protocolViolation(let code): "protocol violation (closed \(code))"
        case .messageTooLarge(let limit): "message larger than \(limit) bytes"
        case .notConnected: "not connected"
        case .tlsUnavailable(let reason): "TLS unavailable: \(reason)"
        }
    }
}
