import Synchronization

#if WebSocket  // the `WebSocket` trait: Package.swift
import Courier
import Foundation
import NIOCore
import NIOWebSocket
import WSClient

extension WebSocketConnection {
    /// How the connection ended, from WSClient's result, the close frame this side sent (if
    /// any), and what the reader and caller did.
    func classify(_ result: Result<WebSocketCloseFrame?, any Error>) -> ConnectionOutcome {
        let byCaller = lifecycle.withLock { $0.closeRequested || $0.cancelledByReader }
        // A frame over `maxMessageSize` is refused by NIO's frame decoder, whose own error
        // handler sends close 1009 past WSClient and the close watch. When its error reaches the
        // socket's stream, that is the only place that knows why the connection ended. (Usually
        // that handler's close wins the race and the stream just ends: see `oversizeSingleFrame`
        // in WebSocketLimitsTests.)
        if !byCaller, let socketError = inbound.socketError, let failure = Self.frameFailure(socketError, limit: configuration.maxMessageSize) {
            return .failed(failure)
        }
        if !byCaller, let sent = closeWatch.sent {
            if sent.reason == "Ping timeout", let interval = configuration.pingInterval {
                return .failed(.webSocketError(.pingTimeout(seconds: interval.seconds)))
            }
            if [1002, 1003, 1007, 1009].contains(sent.code) {
                return Self.outcome(closeCode: sent.code, reason: nil, limit: configuration.maxMessageSize)
            }
        }
        switch result {
        case .success(let frame?):
            let code = Int(UInt16(webSocketErrorCode: frame.closeCode))
            if byCaller { return .normal(code) }
            return Self.outcome(closeCode: code, reason: frame.reason, limit: configuration.maxMessageSize)
        case .success(nil):
            if byCaller { return .normal(nil) }
            return .failed(.networkError(URLError(.networkConnectionLost)))
        case .failure(let error):
            if let failure = Self.failure(for: error, limit: configuration.maxMessageSize) { return .failed(failure) }
            if byCaller { return .normal(nil) }
            return .failed(NetworkError(error))
        }
    }

    /// A close frame's code as an outcome: 1000/1001 are normal, protocol codes are violations.
    static func outcome(closeCode code: Int, reason: String?, limit: Int) -> ConnectionOutcome {
        switch code {
        case 1000, 1001: .normal(code)
        case 1002, 1003, 1007: .failed(.webSocketError(.protocolViolation(code: code)))
        case 1009: .failed(.webSocketError(.messageTooLarge(limit: limit)))
        default: .failed(.webSocketError(.closed(code: code, reason: reason?.isEmpty == true ? nil : reason)))
        }
    }

    /// NIO's frame decoder's errors in Courier's terms (nil for any other error).
    static func frameFailure(_ error: any Error, limit: Int) -> NetworkError? {
        guard let error = error as? NIOWebSocketError else { return nil }
        if case .invalidFrameLength = error { return .webSocketError(.messageTooLarge(limit: limit)) }
        // A fragmented or oversized control frame: NIO's handler closes with 1002.
        return .webSocketError(.protocolViolation(code: 1002))
    }

    /// WSClient's own errors (and NIO's frame decoder's) in Courier's terms (nil for transport errors).
    static func failure(for error: any Error, limit: Int) -> NetworkError? {
        if let failure = frameFailure(error, limit: limit) { return failure }
        guard let error = error as? WebSocketClientError else { return nil }
        switch error {
        case .invalidURL: return .invalidURL
        case .webSocketUpgradeFailed: return .webSocketError(.handshakeRejected(status: nil))
        case .serverSentMessageTooLarge: return .webSocketError(.messageTooLarge(limit: limit))
        case .serverSentDataInconsistentWithMessage: return .webSocketError(.protocolViolation(code: 1007))
        case .serverProtocolError: return .webSocketError(.protocolViolation(code: 1002))
        default: return .networkError(URLError(.cannotConnectToHost))
        }
    }

    /// Why a connection never opened.
    static func handshakeFailure(_ result: Result<WebSocketCloseFrame?, any Error>) -> NetworkError {
        switch result {
        case .success: return .webSocketError(.handshakeRejected(status: nil))
        case .failure(let error):
            return failure(for: error, limit: 0) ?? NetworkError(error)
        }
    }
}
#endif  // WebSocket
