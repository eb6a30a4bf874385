#if WebSocket  // the `WebSocket` trait: Package.swift
public import Foundation
public import Courier
public import HTTPTypes

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
    /// How many bytes of received messages may wait for the reader, whatever their number: the
    /// queue is full at ``receiveBufferLimit`` messages or at this many bytes, whichever comes
    /// first. One message is always taken, so a message larger than this (up to
    /// ``maxMessageSize``) still arrives. A ``WebSocketSession`` bounds its buffer by it too.
    public var receiveBufferBytes: Int
    /// Hosts that may be reached over plain `ws://` (or `http://`). Loopback (`localhost`,
    /// `127.0.0.1`, `::1`) and any `*.localhost` name are allowed by default, for development;
    /// anything else must use `wss://`, or ``WebSocketClient/connect()`` throws
    /// `NetworkError.insecureURL(host:)` before dialling — as `NetworkClient` does for `http://`.
    public var insecureHostsAllowed: Set<String>
    /// Trust roots, a client certificate and a minimum TLS version for `wss://`, as on
    /// `HTTPClientTransport.Settings.tls`. Certificate pins are refused: swift-websocket offers no
    /// place to check the server's key before the opening handshake (and its headers) is sent, so a
    /// `wss://` connection with pins fails closed with `WebSocketFailure/tlsUnavailable(_:)`.
    public var tls: TLSSettings

    /// A configuration for `url` with the defaults: 16 MiB messages, 10 s handshake,
    /// no heartbeat, 5 s close handshake, UTF-8 validated, 64 messages or 16 MiB queued for the
    /// reader, plain `ws://` to loopback only, the system's trust roots.
    public init(
        url: URL,
        headers: HTTPFields = [:],
        subprotocols: [String] = [],
        maxMessageSize: Int = 16 << 20,
        handshakeTimeout: Duration = .seconds(10),
        pingInterval: Duration? = nil,
        closeTimeout: Duration = .seconds(5),
        validatesUTF8: Bool = true,
        receiveBufferLimit: Int = 64,
        receiveBufferBytes: Int = 16 << 20,
        insecureHostsAllowed: Set<String> = NetworkClient.loopbackHosts,
        tls: TLSSettings = TLSSettings()
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
        self.receiveBufferBytes = max(1, receiveBufferBytes)
        self.insecureHostsAllowed = insecureHostsAllowed
        self.tls = tls
    }

    /// Throws `insecureURL(host:)` when ``url`` is plain `ws://` (or `http://`) to a host that
    /// is not allowed: neither in ``insecureHostsAllowed`` nor a `*.localhost` name.
    func checkTransportSecurity() throws(NetworkError) {
        guard let scheme = url.scheme?.lowercased(), scheme == "ws" || scheme == "http", let host = url.host?.lowercased() else { return }
        // URL gives an IPv6 host with or without its brackets depending on the platform.
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        let allowed = Set(insecureHostsAllowed.map { $0.lowercased() })
        if allowed.contains(host) || allowed.contains(bare) || allowed.contains("[\(bare)]") || bare.hasSuffix(".localhost") { return }
        throw .insecureURL(host: bare)
    }

    /// The URL with its query's credentials masked, for log lines.
    var redactedURL: String {
        Redactor().url(url.absoluteString)
    }
}
#endif  // WebSocket
