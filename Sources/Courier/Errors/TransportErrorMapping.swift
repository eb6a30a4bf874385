import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import OpenAPIRuntime
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension NetworkError {
    /// Maps any error thrown while sending a request to a ``NetworkError``.
    ///
    /// - Cancellation in every form (`CancellationError`, `URLError.cancelled`, AsyncHTTPClient's
    ///   `.cancelled`) → ``taskCancelled``.
    /// - Transport errors of AsyncHTTPClient / SwiftNIO → the `URLError` code URLSession would use
    ///   (refused → `.cannotConnectToHost`, timeouts → `.timedOut`, DNS → `.cannotFindHost`, TLS →
    ///   `.secureConnectionFailed`, redirect loop → `.httpTooManyRedirects`, dropped → `.networkConnectionLost`).
    /// - `DecodingError` → ``decodingError(_:)``, `EncodingError` → ``encodingError``.
    /// - OpenAPI runtime wrappers (`ClientError`) are unwrapped first.
    public init(_ error: any Error) {
        if let networkError = error as? NetworkError {
            self = networkError
        } else if error is CancellationError {
            self = .taskCancelled
        } else if let urlError = error as? URLError {
            self = urlError.code == .cancelled ? .taskCancelled : .networkError(urlError)
        } else if let decodingError = error as? DecodingError {
            self = .decodingError(decodingError)
        } else if error is EncodingError {
            self = .encodingError
        } else if let clientError = error as? ClientError {
            self = NetworkError(clientError.underlyingError)
        } else if let code = Self.urlErrorCode(for: error) {
            self = code == .cancelled ? .taskCancelled : .networkError(URLError(code))
        } else {
            self = .networkError(URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: "\(type(of: error))"]))
        }
    }

    /// The URLError code for a SwiftNIO / AsyncHTTPClient error, or nil when unknown.
    static func urlErrorCode(for error: any Error) -> URLError.Code? {
        if let error = error as? HTTPClientError { return urlErrorCode(forHTTPClientError: error) }
        if let error = error as? NIOConnectionError {
            if error.dnsAError != nil || error.dnsAAAAError != nil, error.connectionErrors.isEmpty {
                return .cannotFindHost
            }
            for failure in error.connectionErrors {
                if let code = urlErrorCode(for: failure.error) { return code }
            }
            return .cannotConnectToHost
        }
        if let error = error as? IOError { return urlErrorCode(errno: error.errnoCode) }
        if error is SocketAddressError { return .cannotFindHost }
        if let error = error as? HTTPParserError {
            // The server closed the connection before the message was complete.
            return error == .invalidEOFState ? .networkConnectionLost : .cannotParseResponse
        }
        if let error = error as? ChannelError {
            switch error {
            case .connectTimeout: return .timedOut
            case .eof, .ioOnClosedChannel, .alreadyClosed, .outputClosed, .inputClosed: return .networkConnectionLost
            default: return .networkConnectionLost
            }
        }
        let typeName = String(reflecting: type(of: error))
        if typeName.contains("NIOSSL") || typeName.contains("BoringSSL") || typeName.contains("TLS") {
            return .secureConnectionFailed
        }
        if typeName.contains("Resolver") || typeName.contains("DNS") { return .cannotFindHost }
        if typeName.contains("NIOCompression") || typeName.contains("Decompression") { return .cannotDecodeContentData }
        return nil
    }

    static func urlErrorCode(errno: Int32) -> URLError.Code {
        switch errno {
        case ECONNREFUSED: return .cannotConnectToHost
        case ETIMEDOUT: return .timedOut
        case ENETUNREACH, EHOSTUNREACH: return .cannotConnectToHost
        case ECONNRESET, EPIPE: return .networkConnectionLost
        default: return .networkConnectionLost
        }
    }

    static func urlErrorCode(forHTTPClientError error: HTTPClientError) -> URLError.Code {
        switch error {
        case .cancelled, .requestStreamCancelled: return .cancelled
        case .connectTimeout, .readTimeout, .writeTimeout, .deadlineExceeded, .tlsHandshakeTimeout,
            .socksHandshakeTimeout, .httpProxyHandshakeTimeout, .getConnectionFromPoolTimeout:
            return .timedOut
        case .redirectLimitReached, .redirectCycleDetected: return .httpTooManyRedirects
        case .remoteConnectionClosed, .uncleanShutdown, .bodyLengthMismatch: return .networkConnectionLost
        case .invalidURL, .emptyHost, .emptyScheme, .missingSocketPath: return .badURL
        case .alreadyShutdown: return .cancelled
        case .invalidProxyResponse, .proxyAuthenticationRequired: return .cannotConnectToHost
        default: return .badServerResponse
        }
    }
}
