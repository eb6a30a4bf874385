#if WebSocket  // the `WebSocket` trait: Package.swift
public import Courier
import Foundation
import HTTPTypes
public import Logging
import CourierTLS
import NIOCore
import NIOSSL
import Synchronization
import WSClient

/// Opens WebSocket connections over swift-websocket's `WSClient` (SwiftNIO; no hand-written
/// framing), with Courier's error model: every failure is a `NetworkError`.
///
/// ```swift
/// let client = WebSocketClient(configuration: .init(url: URL(string: "ws://127.0.0.1:8080/echo")!))
/// let connection = try await client.connect()
/// try await connection.send(text: "hello")
/// for try await message in connection.messages { … }
/// ```
///
/// - Plain `ws://` to a host not in `insecureHostsAllowed` (loopback by default) →
///   `NetworkError/insecureURL(host:)`, before anything is sent.
/// - A refused connection, DNS or TLS failure → `NetworkError/networkError(_:)`.
/// - A server that answers the handshake without upgrading → `WebSocketFailure/handshakeRejected(status:)`.
/// - No handshake within `handshakeTimeout` → `networkError(.timedOut)`; a cancelled task → `NetworkError/taskCancelled`.
public struct WebSocketClient: Sendable {
    /// Where and how to connect.
    public var configuration: WebSocketConfiguration
    /// Where connection events go (the URL's credentials and the handshake's header values are never logged).
    public var logger: Logger

    /// A client for `configuration`.
    public init(configuration: WebSocketConfiguration, logger: Logger = Logger(label: "courier.websocket")) {
        self.configuration = configuration
        self.logger = logger
    }

    /// Connects and completes the opening handshake.
    public func connect() async throws(NetworkError) -> WebSocketConnection {
        guard let scheme = configuration.url.scheme?.lowercased(), ["ws", "wss", "http", "https"].contains(scheme),
            configuration.url.host != nil
        else { throw .invalidURL }
        try configuration.checkTransportSecurity()
        let tlsConfiguration = try configuration.nioSSLConfiguration()
        let configuration = self.configuration
        let logger = self.logger
        let opening = WebSocketOpening()
        let closeWatch = OutgoingCloseWatch()
        logger.debug("websocket connecting", metadata: ["url": "\(configuration.redactedURL)"])
        let task = Task {
            let result: Result<WebSocketCloseFrame?, any Error>
            do {
                result = .success(
                    try await WSClient.WebSocketClient.connect(
                        url: configuration.url.absoluteString,
                        configuration: configuration.wsClientConfiguration(closeWatch: closeWatch),
                        tlsConfiguration: tlsConfiguration,
                        logger: logger
                    ) { inbound, outbound, _ in
                        let connection = WebSocketConnection(
                            writer: outbound,
                            source: inbound.messages(maxSize: configuration.maxMessageSize),
                            configuration: configuration,
                            closeWatch: closeWatch,
                            logger: logger
                        )
                        guard opening.succeed(connection) else { return }
                        try await connection.serve()
                    })
            } catch {
                result = .failure(error)
            }
            if let connection = opening.connection {
                let outcome = connection.classify(result)
                logger.debug("websocket ended", metadata: ["outcome": "\(outcome)"])
                connection.finish(with: outcome)
            } else {
                opening.fail(WebSocketConnection.handshakeFailure(result))
            }
        }
        let timeout = Task {
            try? await Task.sleep(for: configuration.handshakeTimeout)
            if opening.fail(.networkError(URLError(.timedOut))) { task.cancel() }
        }
        defer { timeout.cancel() }
        let connection: WebSocketConnection
        do {
            connection = try await withTaskCancellationHandler {
                try await opening.wait()
            } onCancel: {
                if opening.fail(.taskCancelled) { task.cancel() }
            }
        } catch {
            throw NetworkError(error)
        }
        connection.attach(runTask: task)
        return connection
    }
}

extension WebSocketConfiguration {
    /// swift-nio-ssl's configuration for ``tls`` on a `wss://` URL (nil: swift-websocket's
    /// default, the system's roots); pins, unusable settings and an IP address as the host are
    /// refused before dialling.
    func nioSSLConfiguration() throws(NetworkError) -> TLSConfiguration? {
        guard ["wss", "https"].contains(url.scheme?.lowercased()) else { return nil }
        if let host = url.host, host.contains(":") || host.allSatisfy({ $0.isNumber || $0 == "." }) {
            throw .webSocketError(
                .tlsUnavailable(
                    "'\(host)' is an IP address: swift-websocket sends the host as the TLS server name, which cannot be an address; use a host name"))
        }
        guard !tls.isDefault else { return nil }
        guard tls.pins.isEmpty else {
            throw .webSocketError(
                .tlsUnavailable("certificate pins cannot be checked on a WebSocket before its opening handshake is sent"))
        }
        do {
            return try TLSSetup.configuration(tls)
        } catch {
            throw .webSocketError(.tlsUnavailable(error.description))
        }
    }

    /// The same settings in WSClient's terms.
    func wsClientConfiguration(closeWatch: OutgoingCloseWatch) -> WebSocketClientConfiguration {
        var fields = headers
        if !subprotocols.isEmpty { fields[.secWebSocketProtocol] = subprotocols.joined(separator: ", ") }
        return WebSocketClientConfiguration(
            maxFrameSize: maxMessageSize,
            additionalHeaders: fields,
            extensions: [closeWatch.factory],
            closeTimeout: closeTimeout,
            autoPing: pingInterval.map { .enabled(timePeriod: $0) } ?? .disabled,
            validateUTF8: validatesUTF8
        )
    }
}

/// The handshake's result, handed from WSClient's handler (or its failure) to `connect()`.
final class WebSocketOpening: Sendable {
    private enum State {
        case waiting(CheckedContinuation<WebSocketConnection, any Error>?)
        case opened(WebSocketConnection)
        case failed(NetworkError)
    }
    private let state = Mutex(State.waiting(nil))

    var connection: WebSocketConnection? {
        state.withLock { if case .opened(let connection) = $0 { connection } else { nil } }
    }

    func wait() async throws(NetworkError) -> WebSocketConnection {
        do {
            return try await withCheckedThrowingContinuation { continuation in
                let ready = state.withLock { state -> Result<WebSocketConnection, NetworkError>? in
                    switch state {
                    case .waiting:
                        state = .waiting(continuation)
                        return nil
                    case .opened(let connection): return .success(connection)
                    case .failed(let error): return .failure(error)
                    }
                }
                if let ready { continuation.resume(with: ready) }
            }
        } catch {
            throw NetworkError(error)
        }
    }

    /// True when this is the first outcome (the handshake had not failed or timed out before).
    func succeed(_ connection: WebSocketConnection) -> Bool {
        let (won, waiter) = state.withLock { state -> (Bool, CheckedContinuation<WebSocketConnection, any Error>?) in
            guard case .waiting(let waiter) = state else { return (false, nil) }
            state = .opened(connection)
            return (true, waiter)
        }
        waiter?.resume(returning: connection)
        return won
    }

    /// True when this failure is the outcome (nothing had happened yet).
    @discardableResult
    func fail(_ error: NetworkError) -> Bool {
        let (won, waiter) = state.withLock { state -> (Bool, CheckedContinuation<WebSocketConnection, any Error>?) in
            guard case .waiting(let waiter) = state else { return (false, nil) }
            state = .failed(error)
            return (true, waiter)
        }
        waiter?.resume(throwing: error)
        return won
    }
}
#endif  // WebSocket
