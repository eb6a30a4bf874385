public import Foundation
public import HTTPTypes

/// How an answer's status code becomes success or a ``NetworkError``: a value an API sets.
///
/// ``standard`` uses the usual HTTP meanings; an API with its own table sets its own (AlanAPI's
/// `StatusMapping.alan`: the Alan API answers 401 when the quota is used up).
///
/// ```swift
/// let quotaAware = StatusMapping { response, _ in
///     response.status.code == 401 ? .quotaExceeded(401) : StatusMapping.standard.error(for: response, body: Data())
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

    /// Every status is a success: the caller inspects the ``NetworkResponse`` itself (or use
    /// ``NetworkClient/response(_:validatingStatus:)``, which keeps the mapped error beside the answer).
    public static let acceptAll = StatusMapping { _, _ in nil }

    /// The error for a status no table names: ``NetworkError/remoteError(_:_:)`` with the body as
    /// UTF-8 text, or ``NetworkError/unknown(_:)`` when the body is not UTF-8 — for APIs that
    /// build their own table on top of ``standard``.
    public static func remote(_ code: Int, _ body: Data) -> NetworkError {
        guard let text = String(data: body, encoding: .utf8) else { return .unknown(code) }
        return .remoteError(code, text)
    }
}

extension HTTPResponse {
    /// `Retry-After` in seconds: delta-seconds (capped at 2³¹) or an HTTP date, nil when absent
    /// or unreadable (`1e19`, `inf`, `-1` and decimals are unreadable: RFC 9110 §10.2.3 allows
    /// digits only).
    public var retryAfterSeconds: Double? {
        if case .seconds(let seconds) = retryAfter { return Double(seconds) }
        return nil
    }

    /// `Retry-After` as read: absent, a wait in whole seconds, or present but unreadable.
    package var retryAfter: RetryAfter {
        guard let value = headerFields[.retryAfter] else { return .absent }
        if let seconds = WireNumber.deltaSeconds(value) { return .seconds(seconds) }
        guard let date = HTTPDate.parse(value.trimmingCharacters(in: .whitespaces)) else { return .unreadable }
        let wait = date.timeIntervalSinceNow.rounded(.up)
        return .seconds(wait <= 0 ? 0 : min(WireNumber.maxDeltaSeconds, WireNumber.saturating(wait)))
    }
}

/// A `Retry-After` field as read from an answer.
package enum RetryAfter: Equatable {
    /// No `Retry-After`.
    case absent
    /// Wait this many seconds (0 for a date in the past).
    case seconds(Int)
    /// A value that is neither delta-seconds nor an HTTP date.
    case unreadable
}
