import Foundation
import OpenAPIRuntime

#if canImport(FoundationNetworking)
import FoundationNetworking
#if COURIER_ASYNC_HTTP_CLIENT
import CourierAsyncHTTPClient
#endif
#endif

extension NetworkError {
    /// Maps any error thrown while sending a request to a ``NetworkError``.
    ///
    /// - Cancellation in every form (`CancellationError`, `URLError.cancelled`) → ``taskCancelled``.
    /// - `URLError` → ``networkError(_:)``, with its code only (its user info, where a transport
    ///   puts the failing URL, is dropped). Transports map their own errors to `URLError` codes
    ///   (Courier's AsyncHTTPClient transport does); where AsyncHTTPClient is the default (Linux)
    ///   SwiftNIO / AsyncHTTPClient errors from other transports (the stock OpenAPI one) are
    ///   mapped here too: refused → `.cannotConnectToHost`, timeouts → `.timedOut`, DNS →
    ///   `.cannotFindHost`, TLS → `.secureConnectionFailed`, dropped → `.networkConnectionLost`.
    /// - A body over the limit (`ResponseTooLargeError`) → ``responseTooLarge(limit:)``.
    /// - `DecodingError` → ``decodingError(_:)``, `EncodingError` → ``encodingError``.
    /// - OpenAPI runtime wrappers (`ClientError`) are unwrapped first.
    public init(_ error: any Error) {
        if let networkError = error as? NetworkError {
            self = networkError
        } else if error is CancellationError {
            self = .taskCancelled
        } else if let urlError = error as? URLError {
            self = urlError.code == .cancelled ? .taskCancelled : .networkError(Self.scrubbed(urlError))
        } else if let tooLarge = error as? ResponseTooLargeError {
            self = .responseTooLarge(limit: tooLarge.limit)
        } else if let decodingError = error as? DecodingError {
            self = .decodingError(decodingError)
        } else if error is EncodingError {
            self = .encodingError
        } else if let clientError = error as? ClientError {
            self = NetworkError(clientError.underlyingError)
        } else if let urlError = Self.platformURLError(for: error) {
            self = urlError.code == .cancelled ? .taskCancelled : .networkError(Self.scrubbed(urlError))
        } else {
            self = .networkError(URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: "\(type(of: error))"]))
        }
    }

    /// The `URLError` for an error of the platform's default transport stack (SwiftNIO and
    /// AsyncHTTPClient where they are linked), or nil.
    /// `error` with its code and description alone: a transport's `URLError` carries the failing
    /// URL (and its string) and underlying errors in its user info, and a URL may carry a key — a
    /// `NetworkError` never does.
    static func scrubbed(_ error: URLError) -> URLError {
        let userInfo = error.userInfo
        guard userInfo.keys.contains(where: { $0 != NSLocalizedDescriptionKey }) else { return error }
        guard let description = userInfo[NSLocalizedDescriptionKey] as? String, !description.contains("://") else {
            return URLError(error.code)
        }
        return URLError(error.code, userInfo: [NSLocalizedDescriptionKey: description])
    }

    private static func platformURLError(for error: any Error) -> URLError? {
        #if COURIER_ASYNC_HTTP_CLIENT
        NIOErrorMapping.urlError(for: error)
        #else
        nil
        #endif
    }
}
