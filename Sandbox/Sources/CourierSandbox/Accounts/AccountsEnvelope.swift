import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The seed's wrapper, on every answer of the User API, errors included:
/// `{"success":Bool,"code":String?,"message":String?,"data":T?}`.
struct AccountsEnvelope<T: Encodable & Sendable>: Encodable, Sendable {
    var success: Bool
    var code: String?
    var message: String?
    var data: T?

    /// Writes `data` as an explicit `null` when absent, so every answer has all four keys.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(success, forKey: .success)
        try container.encode(code, forKey: .code)
        try container.encode(message, forKey: .message)
        try container.encode(data, forKey: .data)
    }

    private enum CodingKeys: String, CodingKey { case success, code, message, data }
}

/// An empty `data`.
struct NoData: Encodable, Sendable {}

/// A User API answer that is not a success: status, the wrapper's `code` and `message`.
struct AccountsFailure: Error, Sendable, Equatable {
    var status: HTTPResponse.Status
    var code: String
    var message: String
    var headers: HTTPFields = [:]

    static func badRequest(_ field: String, _ problem: String) -> AccountsFailure {
        AccountsFailure(status: .badRequest, code: "BAD_REQUEST", message: "\(field): \(problem)")
    }

    static func unauthorized(_ message: String, error: String = "invalid_token") -> AccountsFailure {
        AccountsFailure(
            status: .unauthorized, code: "UNAUTHORIZED", message: message,
            headers: [.wwwAuthenticate: "Bearer error=\"\(error)\""])
    }

    static let missingToken = AccountsFailure(
        status: .unauthorized, code: "UNAUTHORIZED", message: "인증이 필요합니다 (Authorization: Bearer 토큰)",
        headers: [.wwwAuthenticate: "Bearer"])
    static let badToken = unauthorized("유효하지 않은 토큰입니다")
    static let expiredToken = unauthorized("토큰이 만료되었습니다. 다시 로그인하세요")
    static let badCredentials = AccountsFailure(
        status: .unauthorized, code: "UNAUTHORIZED", message: "아이디 또는 비밀번호가 올바르지 않습니다")
    static let badRefreshToken = AccountsFailure(status: .unauthorized, code: "UNAUTHORIZED", message: "유효하지 않은 리프레시 토큰입니다")
    static let expiredRefreshToken = AccountsFailure(
        status: .unauthorized, code: "UNAUTHORIZED", message: "리프레시 토큰이 만료되었습니다. 다시 로그인하세요")
    static let reusedRefreshToken = AccountsFailure(
        status: .unauthorized, code: "UNAUTHORIZED", message: "이미 사용된 리프레시 토큰입니다. 다시 로그인하세요")
    static let forbidden = AccountsFailure(status: .forbidden, code: "FORBIDDEN", message: "본인 계정만 조회·수정·삭제할 수 있습니다")
    static let notFound = AccountsFailure(status: .notFound, code: "NOT_FOUND", message: "사용자를 찾을 수 없습니다")
    static let usernameTaken = AccountsFailure(status: .conflict, code: "CONFLICT", message: "이미 존재하는 사용자명")
    static let unknownPath = AccountsFailure(status: .notFound, code: "NOT_FOUND", message: "없는 API 경로입니다")

    static func methodNotAllowed(allow: [HTTPRequest.Method]) -> AccountsFailure {
        let list = allow.map(\.rawValue).joined(separator: ", ")
        return AccountsFailure(
            status: .methodNotAllowed, code: "METHOD_NOT_ALLOWED", message: "허용되지 않은 메서드입니다 (허용: \(list))",
            headers: [.allow: list])
    }

    /// A body that is not declared JSON; `Accept-Post`/`Accept-Patch` say what is (RFC 9110 §15.5.16).
    static func unsupportedMediaType(_ method: HTTPRequest.Method) -> AccountsFailure {
        let accept: HTTPField.Name? =
            switch method {
            case .post: HTTPField.Name("Accept-Post")
            case .patch: HTTPField.Name("Accept-Patch")
            default: nil
            }
        var headers: HTTPFields = [:]
        if let accept { headers[accept] = "application/json" }
        return AccountsFailure(
            status: .unsupportedMediaType, code: "UNSUPPORTED_MEDIA_TYPE",
            message: "Content-Type: application/json이어야 합니다", headers: headers)
    }

    static let internalError = AccountsFailure(status: .internalServerError, code: "INTERNAL_ERROR", message: "서버 내부 오류")

    static func tooManyAttempts(retryAfter seconds: Int) -> AccountsFailure {
        AccountsFailure(
            status: .tooManyRequests, code: "TOO_MANY_REQUESTS",
            message: "로그인 시도가 너무 많습니다. \(seconds)초 후에 다시 시도하세요",
            headers: [.retryAfter: String(seconds)])
    }

    /// The wrapped error answer.
    var response: Response {
        var headers = self.headers
        headers[.cacheControl] = "no-store"
        return JSONResponse.make(
            AccountsEnvelope<NoData>(success: false, code: code, message: message, data: nil),
            status: status, headers: headers)
    }
}

extension AccountsEnvelope {
    /// A wrapped success answer.
    static func response(_ data: T?, status: HTTPResponse.Status = .ok, code: String = "OK", message: String) -> Response {
        JSONResponse.make(
            AccountsEnvelope(success: true, code: code, message: message, data: data),
            status: status, headers: [.cacheControl: "no-store"])
    }
}
