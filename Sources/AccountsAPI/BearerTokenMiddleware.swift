import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Adds `Authorization: Bearer <token>` to requests for one server, when a token is available
/// and the request has no `Authorization` of its own. A swift-openapi-runtime
/// `ClientMiddleware`, so it works for Courier endpoints and generated clients alike.
///
/// ```swift
/// let auth = BearerTokenMiddleware(server: server) { await tokens.current }  // your own token store
/// let client = NetworkClient(transport: HTTPClientTransport.shared, middlewares: [auth])
/// ```
public struct BearerTokenMiddleware: ClientMiddleware {
    /// Requests to other hosts never get the token.
    public var server: URL
    private let token: @Sendable () async -> String?

    /// A middleware that asks `token` for the current token before each request to `server`.
    public init(server: URL, token: @escaping @Sendable () async -> String?) {
        self.server = server
        self.token = token
    }

    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        if request.headerFields[.authorization] == nil, Self.sameOrigin(baseURL, server), let token = await token() {
            request.headerFields[.authorization] = "Bearer \(token)"
        }
        return try await next(request, body, baseURL)
    }

    /// Same scheme, host and port.
    static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        a.scheme?.lowercased() == b.scheme?.lowercased() && a.host?.lowercased() == b.host?.lowercased()
            && (a.port ?? defaultPort(a)) == (b.port ?? defaultPort(b))
    }

    private static func defaultPort(_ url: URL) -> Int? {
        switch url.scheme?.lowercased() {
        case "http": 80
        case "https": 443
        default: nil
        }
    }
}
