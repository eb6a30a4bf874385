import Foundation
import HTTPTypes

/// A whole answer: status, header fields and body bytes.
public struct Response: Sendable {
    /// The request as sent (after middlewares).
    public let request: HTTPRequest
    /// The response head.
    public let head: HTTPResponse
    /// The body, collected up to the client's size limit.
    public let body: Data

    /// Creates a response.
    public init(request: HTTPRequest, head: HTTPResponse, body: Data) {
        self.request = request
        self.head = head
        self.body = body
    }

    /// The status code, e.g. 200.
    public var statusCode: Int { head.status.code }
    /// The header fields.
    public var headers: HTTPFields { head.headerFields }
    /// The body as UTF-8 text, if it is.
    public var text: String? { String(data: body, encoding: .utf8) }
}
