import Foundation
import Courier
import HTTPTypes

/// Where and how a ``WebSocketClient`` connects.
///
/// ```swift
/// var configuration = WebSocketConfiguration(url: URL(string: "wss://api.upbit.com/websocket/v1")!)
/// configuration.pingInterval = .seconds(10)
/// let connection = try await WebSocketClient(configuration: configuration).connect()
/// ```
public struct WebSocketConfiguration: Sendable {
    /// A `ws://` or `wss://` URL (`http`/`https` are accepted and mean the same).
    public var url: URL
    /// Extra header fields for the opening handshake (e.g. `Authorization`; never logged).
    public var headers: HTTPFields
    /// Subprotocols offered in `Sec-WebSocket-Protocol`, most preferred first.
    public var subprotocols: [String]
    /// The largest message accepted or sent in one frame (bytes); a larger one ends the
    /// connection with `WebSocketFailure/messageTooLarge(limit:)`.
    public var maxMessageSize: Int
    /// How long the TCP connect plus the opening handshake may take.
    public var handshakeTimeout: Duration
    /// Heartbeat: a ping is sent every `pingInterval`; when a ping is still unanswered at the next
    /// one, the connection is closed and ends with `WebSocketFailure/pingTimeout(seconds:)`.
    /// So a dead peer is noticed between one and two intervals after it went silent. Nil: no pings.
    public var pingInterval: Duration?
    /// How long a close handshake may wait for the peer's close frame before the socket is closed.
    public var closeTimeout: Duration
    /// Check that text messages are valid UTF-8 (a peer sending invalid text is a protocol violation).
    public var validatesUTF8: Bool
    /// How many received messages may wait for the reader; when full, the socket is not read
    /// until the reader takes one (the peer is slowed down; nothing is dropped).
    public var receiveBufferLimit: Int

    /// A configuration for `url` with the defaults: 16 MiB messages, 10 s handshake,
    /// no heartbeat, 5 s close handshake, UTF-8 validated, 64 messages queued for the reader.
    public init(
        url: URL,
        headers: HTTPFields = [:],
        subprotocols: [String] = [],
        maxMessageSize: Int = 16 << 20,
        handshakeTimeout: Duration = .seconds(10),
        pingInterval: Duration? = nil,
        closeTimeout: Duration = .seconds(5),
        validatesUTF8: Bool = true,
        receiveBufferLimit: Int = 64
    ) {
        self.url = url
        self.headers = headers
        self.subprotocols = subprotocols
        self.maxMessageSize = maxMessageSize
        self.handshakeTimeout = handshakeTimeout
        self.pingInterval = pingInterval
        self.closeTimeout = closeTimeout
        self.validatesUTF8 = validatesUTF8
        self.receiveBufferLimit = max(1, receiveBufferLimit)
    }

    /// The URL with its query's credentials masked, for log lines.
    var redactedURL: String {
        Redactor().url(url.absoluteString)
    }
}
