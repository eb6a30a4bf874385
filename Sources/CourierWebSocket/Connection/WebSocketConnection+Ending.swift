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

    /// WSClient's own errors in Courier's terms (nil for transport errors).
    static func failure(for error: any Error, limit: Int) -> NetworkError? {
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
