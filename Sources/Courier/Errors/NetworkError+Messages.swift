public import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension NetworkError {
    /// A language for ``NetworkError``'s user messages.
    public enum MessageLanguage: String, Sendable, CaseIterable {
        /// 한국어 (the seed app's wording).
        case korean = "ko"
        /// English.
        case english = "en"

        /// Korean when the user's first preferred language is Korean, English otherwise.
        public static var preferred: NetworkError.MessageLanguage {
            let first = Locale.preferredLanguages.first ?? Locale.current.identifier
            return first.hasPrefix("ko") ? .korean : .english
        }
    }
}

extension NetworkError: LocalizedError {
    /// The user message in the user's preferred language (see ``NetworkError/MessageLanguage/preferred``).
    public var errorDescription: String? { userMessage(in: .preferred) }

    /// The message to show a user. The seed's cases keep the seed's wording: cancellation says so,
    /// every other seed case gives the generic "try again later".
    public func userMessage(in language: NetworkError.MessageLanguage) -> String {
        switch (self, language) {
        case (.taskCancelled, .korean): return "작업이 취소됐어요"
        case (.taskCancelled, .english): return "The task was cancelled."
        case (.modelRefusal(let text), _): return text
        case (.insecureURL(let host), .korean):
            return "보안되지 않은 연결(http://\(host))은 허용되지 않아요"
        case (.insecureURL(let host), .english):
            return "An insecure connection (http://\(host)) is not allowed."
        case (.responseTooLarge(let limit), .korean):
            return "응답이 너무 커요 (\(limit)바이트 제한)"
        case (.responseTooLarge(let limit), .english):
            return "The response is larger than the \(limit)-byte limit."
        case (.fileError(.diskFull), .korean): return "저장 공간이 부족해요"
        case (.fileError(.diskFull), .english): return "The disk is full."
        case (.fileError(.inUse), .korean): return "같은 파일을 이미 내려받고 있어요"
        case (.fileError(.inUse), .english): return "This file is already being downloaded."
        case (.fileError(.checksumMismatch), .korean): return "내려받은 파일이 손상됐어요"
        case (.fileError(.checksumMismatch), .english): return "The downloaded file is damaged (its checksum does not match)."
        case (.fileError, .korean): return "파일을 읽거나 쓰지 못했어요"
        case (.fileError, .english): return "The file could not be read or written."
        case (.unauthorized, .korean): return "로그인이 필요해요\n다시 로그인해 주세요"
        case (.unauthorized, .english): return "You need to sign in.\nPlease sign in again."
        case (.rateLimited(let after), .korean):
            return after.map { "요청이 너무 많아요\n\(WireNumber.saturating($0.rounded(.up)))초 후 다시 시도해 주세요" }
                ?? "요청이 너무 많아요\n잠시 후 다시 시도해 주세요"
        case (.rateLimited(let after), .english):
            return after.map { "Too many requests.\nPlease try again in \(WireNumber.saturating($0.rounded(.up))) s." }
                ?? "Too many requests.\nPlease try again in a moment."
        case (.circuitOpen(let at), .korean):
            return "서비스에 잠시 연결할 수 없어요\n\(Self.secondsUntil(at))초 후 다시 시도해 주세요"
        case (.circuitOpen(let at), .english):
            return "The service is unavailable for now.\nPlease try again in \(Self.secondsUntil(at)) s."
        case (_, .korean): return "데이터를 불러오지 못했어요\n잠시 후 다시 시도해 주세요"
        case (_, .english): return "Couldn't load the data.\nPlease try again in a moment."
        }
    }

    /// Whole seconds from now until `date`, rounded up; 0 for a date already past.
    private static func secondsUntil(_ date: Date) -> Int {
        max(0, WireNumber.saturating(date.timeIntervalSinceNow.rounded(.up)))
    }

    /// A developer-facing reason (not shown to users by default): the transport's code,
    /// the status, the decoding path.
    public var failureReason: String? { logDescription }
}

extension NetworkError: CustomStringConvertible {
    /// The case with its payload, as used in ``log(file:function:)``.
    public var description: String { logDescription }
}

extension NetworkError {
    /// The one-line log in the seed's format, e.g. `notFound(404)-"App/MyService.swift#fetchData"`.
    ///
    /// Call it where the error is handled: `error.log()`.
    @discardableResult
    public func log(file: String = #fileID, function: String = #function) -> String {
        "\(logDescription)-\"\(file)#\(function)\""
    }

    package var logDescription: String {
        switch self {
        case .networkError(let error):
            return "networkError(\(error.code.rawValue) \(error.code.name))"
        case .decodingError(let error):
            let text = DecodingDiagnostics.summary(of: error).replacingOccurrences(of: "\"", with: "\\\"")
            return "decodingError(\"\(text)\")"
        case .remoteError(let code, let body):
            let excerpt = DecodingDiagnostics.excerpt(body, limit: 120)
                .replacingOccurrences(of: "\"", with: "\\\"")
            return "remoteError(\(code), \"\(excerpt)\")"
        case .rateLimited(let after):
            return after.map { "rateLimited(retryAfter: \($0))" } ?? "rateLimited"
        case .responseTooLarge(let limit): return "responseTooLarge(\(limit))"
        case .webSocketError(let failure): return "webSocketError(\(failure))"
        case .insecureURL(let host): return "insecureURL(\(host))"
        case .fileError(let failure): return "fileError(\(failure))"
        case .circuitOpen(let at): return "circuitOpen(retryAt: \(at.timeIntervalSince1970))"
        case .modelRefusal(let text):
            let excerpt = DecodingDiagnostics.excerpt(text, limit: 120)
                .replacingOccurrences(of: "\"", with: "\\\"")
            return "modelRefusal(\"\(excerpt)\")"
        default:
            if let code = statusCode { return "\(caseName)(\(code))" }
            return caseName
        }
    }
}

extension URLError.Code {
    /// A readable name for the codes Courier produces.
    var name: String {
        switch self {
        case .cancelled: "cancelled"
        case .badURL: "badURL"
        case .timedOut: "timedOut"
        case .unsupportedURL: "unsupportedURL"
        case .cannotFindHost: "cannotFindHost"
        case .cannotConnectToHost: "cannotConnectToHost"
        case .networkConnectionLost: "networkConnectionLost"
        case .dnsLookupFailed: "dnsLookupFailed"
        case .httpTooManyRedirects: "httpTooManyRedirects"
        case .notConnectedToInternet: "notConnectedToInternet"
        case .badServerResponse: "badServerResponse"
        case .secureConnectionFailed: "secureConnectionFailed"
        case .serverCertificateUntrusted: "serverCertificateUntrusted"
        case .dataLengthExceedsMaximum: "dataLengthExceedsMaximum"
        case .cannotDecodeContentData: "cannotDecodeContentData"
        case .cannotParseResponse: "cannotParseResponse"
        case .zeroByteResource: "zeroByteResource"
        case .appTransportSecurityRequiresSecureConnection: "appTransportSecurityRequiresSecureConnection"
        case .userAuthenticationRequired: "userAuthenticationRequired"
        case .clientCertificateRequired: "clientCertificateRequired"
        case .clientCertificateRejected: "clientCertificateRejected"
        default: "code"
        }
    }
}
