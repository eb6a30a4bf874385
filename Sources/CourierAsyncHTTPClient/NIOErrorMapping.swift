import AsyncHTTPClient
import CourierTLS
package import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// SwiftNIO and AsyncHTTPClient errors as the `URLError` codes URLSession would use, so a
/// `NetworkError.networkError(URLError)` means the same on every transport.
///
/// ```swift
/// NIOErrorMapping.urlError(for: HTTPClientError.connectTimeout)?.code   // .timedOut
/// ```
package enum NIOErrorMapping {
    /// `error` as a `URLError` (cancellation as `.cancelled`), or nil when it is not a SwiftNIO /
    /// AsyncHTTPClient error this mapping knows.
    package static func urlError(for error: any Error) -> URLError? {
        if let urlError = error as? URLError { return urlError }
        return urlErrorCode(for: error).map { URLError($0) }
    }

    /// The URLError code for a SwiftNIO / AsyncHTTPClient error, or nil when unknown.
    static func urlErrorCode(for error: any Error) -> URLError.Code? {
        if let error = error as? HTTPClientError { return urlErrorCode(forHTTPClientError: error) }
        if error is CertificatePinMismatch { return .serverCertificateUntrusted }
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
            // BoringSSL's reason names what went wrong: the server's chain, or the server refusing ours.
            let reason = String(describing: error)
            if reason.contains("CERTIFICATE_VERIFY_FAILED") { return .serverCertificateUntrusted }
            if reason.contains("CERTIFICATE_REQUIRED") { return .clientCertificateRequired }
            if reason.contains("ALERT_BAD_CERTIFICATE") || reason.contains("ALERT_UNKNOWN_CA") || reason.contains("ALERT_CERTIFICATE_UNKNOWN") {
                return .clientCertificateRejected
            }
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
        // A proxy that wants (other) credentials: 407 to CONNECT.
        case .proxyAuthenticationRequired: return .userAuthenticationRequired
        case .invalidProxyResponse: return .cannotConnectToHost
        default: return .badServerResponse
        }
    }
}
