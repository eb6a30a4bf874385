import Courier
public import CourierTransportCore
public import Foundation
public import HTTPTypes
public import OpenAPIRuntime

/// A ``CookieJar`` on a client: every request gets the jar's `Cookie` for its URL, every answer's
/// `Set-Cookie` fields go into the jar. The client follows redirects hop by hop through its
/// middlewares, so a cookie a `302` sets is sent to the hop it points at (if it matches there), and
/// no hop gets another origin's cookies. Neither transport keeps cookies of its own.
///
/// ```swift
/// let jar = CookieJar()
/// let client = NetworkClient(configuration: .init(baseURL: api, middlewares: [CookieMiddleware(jar: jar), CacheMiddleware()]))
/// _ = try await client.response(Login.session(user, password))   // Set-Cookie: session=…
/// let me = try await client.request(Login.me, as: User.self)       // Cookie: session=…
/// ```
///
/// Put it before `CacheMiddleware`, so that the cache sees the `Cookie` a request carries (and
/// keeps answers to different sessions apart). A `Cookie` the request already has comes first,
/// the jar's after it.
public struct CookieMiddleware: ClientMiddleware, CallMiddleware, Sendable {
    /// Where the cookies are.
    public let jar: CookieJar

    /// A middleware over `jar`.
    public init(jar: CookieJar) {
        self.jar = jar
    }

    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        try await intercept(request, body: body, baseURL: baseURL, operationID: operationID, context: CallContext.current, next: next)
    }

    package func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        context: CallContext?,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard let url = URL(string: URLJoin.join(baseURL, request.path ?? "/")) else { return try await next(request, body, baseURL) }
        var request = request
        if let cookies = jar.cookieHeader(for: url) {
            let own = request.headerFields[fields: .cookie].map(\.value)
            // One field (RFC 6265 §5.4): HTTPFields' own setter would split the pairs into several.
            request.headerFields[fields: .cookie] = [HTTPField(name: .cookie, value: (own + [cookies]).joined(separator: "; "))]
        }
        let (head, answer) = try await next(request, body, baseURL)
        let fields = head.headerFields[values: .setCookie]
        if !fields.isEmpty { jar.store(fields, from: url) }
        return (head, answer)
    }
}
