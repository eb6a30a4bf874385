public import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The one error every Courier request throws.
///
/// The first fifteen cases are the seed app's taxonomy, with its semantics; the rest are
/// what a general-purpose client needs on top. Transport failures of every transport are
/// mapped to `URLError` codes, so ``networkError(_:)`` means the same on every platform,
/// and every form of cancellation becomes ``taskCancelled``.
///
/// ```swift
/// do {
///     let user = try await client.request(UserAPI.get(id: 1), as: User.self)
/// } catch .taskCancelled {
///     // nothing to show
/// } catch {
///     showAlert(error.localizedDescription)
/// }
/// ```
public enum NetworkError: Error, Sendable {
    /// The transport failed (no connection, timeout, DNS, TLS, too many redirects …).
    case networkError(URLError)
    /// The calling task (or the transport request) was cancelled.
    case taskCancelled
    /// The endpoint's URL could not be built.
    case invalidURL
    /// The response was not a usable HTTP response (e.g. a body cut off mid-stream).
    case invalidResponse
    /// The request body could not be encoded.
    case encodingError
    /// The response body did not decode; see ``bodyExcerpt`` and ``codingPathDescription``.
    case decodingError(DecodingError)
    /// The API key needed for the request is missing or rejected.
    case invalidAPIKey
    /// The API's quota is used up (the Alan API answers 401 for this).
    case quotaExceeded(Int)
    /// 404.
    case notFound(Int)
    /// 414: the URI (often a prompt in the query) is too long.
    case uriTooLong(Int)
    /// 503.
    case serviceUnavailable(Int)
    /// Any other 5xx.
    case serverError(Int)
    /// Any other non-success status, with the body as UTF-8 text.
    case remoteError(Int, String)
    /// A non-success status whose body is not UTF-8 text.
    case unknown(Int)
    /// A WebSocket failure: the handshake was rejected, the server closed with an error code,
    /// the heartbeat timed out, or the peer broke the protocol (see ``NetworkError/WebSocketFailure``).
    case webSocketError(NetworkError.WebSocketFailure)

    // MARK: General-purpose additions

    /// 401 under the standard mapping: credentials are missing, bad or expired.
    case unauthorized(Int)
    /// 429 (or 503 with `Retry-After`): slow down; `retryAfter` in seconds when the server said.
    case rateLimited(retryAfter: Double?)
    /// The response body is larger than the configured limit (bytes).
    case responseTooLarge(limit: Int)
    /// A plain `http://` URL to a host that is not allowed (App Transport Security's lesson).
    case insecureURL(host: String)
    /// An LLM answered without usable JSON (a refusal, for instance); carries the model's own text.
    case modelRefusal(String)
    /// A transfer's local file could not be read or written (a full disk, a download already
    /// running to the same file, a checksum that does not match).
    case fileError(NetworkError.FileFailure)
    /// A circuit breaker (`CircuitBreakerMiddleware` in CourierResilience) found the origin failing
    /// and refused the call without sending it; it lets a call through again at `retryAt`. No status
    /// was answered and no connection was tried, so neither ``serviceUnavailable(_:)`` nor
    /// ``networkError(_:)`` (which a retry middleware would retry at once) says it truly.
    case circuitOpen(retryAt: Date)
}

extension NetworkError {
    /// The HTTP status code this error carries, if any.
    public var statusCode: Int? {
        switch self {
        case .quotaExceeded(let code), .notFound(let code), .uriTooLong(let code),
            .serviceUnavailable(let code), .serverError(let code), .remoteError(let code, _),
            .unknown(let code), .unauthorized(let code):
            return code
        case .rateLimited:
            return 429
        default:
            return nil
        }
    }

    /// The family of this error, used for exit codes and coarse handling.
    public var family: Family {
        switch self {
        case .taskCancelled: return .cancelled
        case .networkError, .webSocketError: return .transport
        case .invalidURL, .encodingError, .insecureURL: return .request
        case .invalidResponse, .decodingError, .responseTooLarge, .modelRefusal: return .response
        case .invalidAPIKey, .quotaExceeded, .unauthorized: return .authorization
        case .notFound, .uriTooLong, .remoteError, .unknown, .rateLimited: return .client
        case .serviceUnavailable, .serverError, .circuitOpen: return .server
        case .fileError: return .file
        }
    }

    /// Coarse groups of ``NetworkError`` cases.
    public enum Family: String, Sendable, CaseIterable {
        /// The request was cancelled.
        case cancelled
        /// The request could not be built or was refused before sending.
        case request
        /// The connection failed.
        case transport
        /// Credentials or quota.
        case authorization
        /// A 4xx answer.
        case client
        /// A 5xx answer, or an origin a circuit breaker found failing (``NetworkError/circuitOpen(retryAt:)``).
        case server
        /// The answer could not be used.
        case response
        /// A local file could not be read or written.
        case file
    }
}

extension NetworkError: Equatable {
    /// Two errors are equal when they are the same case with equal payloads; decoding errors
    /// compare by their description, URL errors by code.
    public static func == (lhs: NetworkError, rhs: NetworkError) -> Bool {
        switch (lhs, rhs) {
        case (.networkError(let a), .networkError(let b)): return a.code == b.code
        case (.decodingError(let a), .decodingError(let b)):
            return String(describing: a) == String(describing: b)
        case (.remoteError(let a, let x), .remoteError(let b, let y)): return a == b && x == y
        case (.rateLimited(let a), .rateLimited(let b)): return a == b
        case (.responseTooLarge(let a), .responseTooLarge(let b)): return a == b
        case (.insecureURL(let a), .insecureURL(let b)): return a == b
        case (.modelRefusal(let a), .modelRefusal(let b)): return a == b
        case (.webSocketError(let a), .webSocketError(let b)): return a == b
        case (.fileError(let a), .fileError(let b)): return a == b
        case (.circuitOpen(let a), .circuitOpen(let b)): return a == b
        default:
            guard lhs.statusCode == rhs.statusCode else { return false }
            return lhs.caseName == rhs.caseName
        }
    }

    /// The case's name without payload, e.g. `"notFound"`.
    public var caseName: String {
        switch self {
        case .networkError: "networkError"
        case .taskCancelled: "taskCancelled"
        case .invalidURL: "invalidURL"
        case .invalidResponse: "invalidResponse"
        case .encodingError: "encodingError"
        case .decodingError: "decodingError"
        case .invalidAPIKey: "invalidAPIKey"
        case .quotaExceeded: "quotaExceeded"
        case .notFound: "notFound"
        case .uriTooLong: "uriTooLong"
        case .serviceUnavailable: "serviceUnavailable"
        case .serverError: "serverError"
        case .remoteError: "remoteError"
        case .unknown: "unknown"
        case .webSocketError: "webSocketError"
        case .unauthorized: "unauthorized"
        case .rateLimited: "rateLimited"
        case .responseTooLarge: "responseTooLarge"
        case .insecureURL: "insecureURL"
        case .modelRefusal: "modelRefusal"
        case .fileError: "fileError"
        case .circuitOpen: "circuitOpen"
        }
    }
}
