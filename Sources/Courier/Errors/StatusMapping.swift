import Foundation
import HTTPTypes

/// How an answer's status code becomes success or a ``NetworkError``: a value an API sets.
///
/// ``standard`` uses the usual HTTP meanings; ``seed`` is the coin-report app's table (the
/// Alan API answers 401 when the quota is used up).
///
/// ```swift
/// enum AlanAPI: Endpoint {
///     var statusMapping: StatusMapping { .seed }
/// }
/// ```
public struct StatusMapping: Sendable {
    private let map: @Sendable (_ response: HTTPResponse, _ body: Data) -> NetworkError?

    /// A mapping from a closure that returns nil for success.
    public init(_ map: @escaping @Sendable (_ response: HTTPResponse, _ body: Data) -> NetworkError?) {
        self.map = map
    }

    /// nil when the answer is a success, otherwise the error it means.
    public func error(for response: HTTPResponse, body: Data) -> NetworkError? {
        map(response, body)
    }

    /// The usual HTTP meanings: 2xx ok; 401 → ``NetworkError/unauthorized(_:)``; 404; 414;
    /// 429 → ``NetworkError/rateLimited(retryAfter:)`` with `Retry-After`; 503; other 5xx;
    /// anything else → ``NetworkError/remoteError(_:_:)`` with the body, or ``NetworkError/unknown(_:)``.
    public static let standard = StatusMapping { response, body in
        let code = response.status.code
        switch code {
        case 200..<300: return nil
        case 401: return .unauthorized(code)
        case 404: return .notFound(code)
        case 414: return .uriTooLong(code)
        case 429: return .rateLimited(retryAfter: response.retryAfterSeconds)
        case 503: return .serviceUnavailable(code)
        case 500..<600: return .serverError(code)
        default: return remote(code, body)
        }
    }

    /// The seed app's table: 2xx ok; 401 → quotaExceeded; 404 → notFound; 414 → uriTooLong;
    /// 503 → serviceUnavailable; other 5xx → serverError; anything else → remoteError(code, body)
    /// or unknown(code) when the body is not UTF-8.
    public static let seed = StatusMapping { response, body in
        let code = response.status.code
        switch code {
        case 200..<300: return nil
        case 401: return .quotaExceeded(code)
        case 404: return .notFound(code)
        case 414: return .uriTooLong(code)
        case 503: return .serviceUnavailable(code)
        case 500..<600: return .serverError(code)
        default: return remote(code, body)
        }
    }

    /// Every status is a success: the caller inspects the ``NetworkResponse`` itself (or use
    /// ``NetworkClient/answer(_:)``, which keeps the mapped error beside the answer).
    public static let acceptAll = StatusMapping { _, _ in nil }

    private static func remote(_ code: Int, _ body: Data) -> NetworkError {
        guard let text = String(data: body, encoding: .utf8) else { return .unknown(code) }
        return .remoteError(code, text)
    }
}

extension HTTPResponse {
    /// `Retry-After` in seconds: delta-seconds or an HTTP date, nil when absent or unreadable.
    public var retryAfterSeconds: Double? {
        guard let value = headerFields[.retryAfter]?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = Double(value), seconds >= 0 { return seconds }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: value) else { return nil }
        return max(0, date.timeIntervalSinceNow)
    }
}
