public import Foundation
public import HTTPTypes

/// A whole answer: status, header fields and body bytes — and, for an error answer, the
/// ``NetworkError`` the endpoint's status mapping makes of it.
///
/// ``NetworkClient/response(_:)`` throws that error; ``NetworkClient/response(_:validatingStatus:)`` hands back the
/// answer whatever its status, so a client can read an API's own error body (an envelope's
/// `message`, a FastAPI `detail` …) next to the error, without a second status mapping:
///
/// ```swift
/// let answer = try await client.response(UserAPI.getUser(id: 7), validatingStatus: false)
/// if let error = answer.statusError {
///     let head = EnvelopeHead.read(answer.body)      // {"success":false,"code":"FORBIDDEN","message":…}
///     throw AppError.server(error, message: head?.message)
/// }
/// ```
public struct NetworkResponse: Sendable {
    /// The request as sent (after middlewares).
    public let request: HTTPRequest
    /// The response head.
    public let head: HTTPResponse
    /// The body, collected up to the client's size limit.
    public let body: Data
    /// What the endpoint's ``StatusMapping`` makes of the status: nil for a success.
    public let statusError: NetworkError?
    /// The redirects followed to get this answer, in order (empty when the first hop answered).
    public let redirects: [NetworkResponse.Redirect]

    /// Creates a response.
    public init(request: HTTPRequest, head: HTTPResponse, body: Data, statusError: NetworkError? = nil, redirects: [NetworkResponse.Redirect] = []) {
        self.request = request
        self.head = head
        self.body = body
        self.statusError = statusError
        self.redirects = redirects
    }

    /// The status code, e.g. 200.
    public var statusCode: Int { head.status.code }
    /// The header fields.
    public var headers: HTTPFields { head.headerFields }
    /// The body as UTF-8 text, if it is.
    public var text: String? { String(data: body, encoding: .utf8) }
    /// Whether the status mapping calls this answer a success.
    public var isSuccess: Bool { statusError == nil }

    /// This answer, or its ``statusError`` thrown.
    public func validated() throws(NetworkError) -> NetworkResponse {
        if let statusError { throw statusError }
        return self
    }
}
