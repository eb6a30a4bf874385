import AsyncHTTPClient
import CourierTLS
import CourierTransportCore
package import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
import NIOSSL

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Network)
import Network
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
        if error is TLSSettingsError { return .secureConnectionFailed }  // a call's TLS settings that could not be applied
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
        if error is SocketAddressError || error is SocketAddressError.UnknownHost { return .cannotFindHost }
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
        if let error = error as? NIOSSLError { return urlErrorCode(forTLSError: error) }
        if error is NIOSSLExtraError || error is NIOSSLCloseTimedOutError || error is NIOTLSUnwrappingError { return .secureConnectionFailed }
        if let error = error as? BoringSSLError { return urlErrorCode(forBoringSSL: error) }
        if error is NIOHTTPDecompression.DecompressionError || error is NIOHTTPDecompression.ExtraDecompressionError {
            return .cannotDecodeContentData
        }
        return networkFrameworkCode(for: error)
    }

    /// A TLS failure: the server's chain untrusted, the server asking for a client certificate or
    /// refusing ours, or any other failure of the secure connection.
    static func urlErrorCode(forTLSError error: NIOSSLError) -> URLError.Code {
        switch error {
        case .handshakeFailed(let reason), .shutdownFailed(let reason): urlErrorCode(forBoringSSL: reason)
        default: .secureConnectionFailed
        }
    }

    /// BoringSSL's error stack names what went wrong by its reason (there is no public enum of
    /// them): the server's chain, or the server refusing ours.
    static func urlErrorCode(forBoringSSL error: BoringSSLError) -> URLError.Code {
        let reason = String(describing: error)
        if reason.contains("CERTIFICATE_VERIFY_FAILED") { return .serverCertificateUntrusted }
        if reason.contains("CERTIFICATE_REQUIRED") { return .clientCertificateRequired }
        if reason.contains("ALERT_BAD_CERTIFICATE") || reason.contains("ALERT_UNKNOWN_CA") || reason.contains("ALERT_CERTIFICATE_UNKNOWN") {
            return .clientCertificateRejected
        }
        return .secureConnectionFailed
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

#if canImport(Network)
extension NIOErrorMapping {
    /// Network.framework's errors, which AsyncHTTPClient hands on when it runs over NIO Transport
    /// Services (Apple platforms only; never compiled on the machines Courier is tested on).
    static func networkFrameworkCode(for error: any Error) -> URLError.Code? {
        if error is HTTPClient.NWTLSError { return .secureConnectionFailed }
        if let error = error as? HTTPClient.NWPOSIXError { return urlErrorCode(errno: error.errorCode.rawValue) }
        if let error = error as? NWError, case .dns = error { return .cannotFindHost }
        return nil
    }
}
#else
extension NIOErrorMapping {
    /// Network.framework's errors: none off Apple platforms.
    static func networkFrameworkCode(for error: any Error) -> URLError.Code? { nil }
}
#endif
