public import Foundation
public import HTTPTypes
public import Logging
public import OpenAPIRuntime

/// Sends `Authorization: Bearer <token>` and keeps the token fresh: refreshes it shortly before
/// it expires, and on a 401 refreshes once and replays the call. However many calls are
/// refused at once, one refresh runs; if the server rejects it (a 4xx), every one of them ends in
/// ``NetworkError/unauthorized(_:)``, and if it fails for a reason that may pass (a timeout, a
/// refused connection, a 5xx) they end in that error, so the caller keeps its credentials (calls
/// refused with the same token in the next 10 s fail the same way without another refresh); if it returns nil (nothing to refresh with), the server's
/// 401 answer stands. A call refreshes at most once, so a replay that is refused again is
/// answered as is (no refresh loop).
///
/// ```swift
/// let auth = BearerTokenMiddleware(allowedOrigins: [server]) {
///     await store.accessToken                       // your token store
/// } refresh: { rejected in
///     try await store.refresh()                     // e.g. POST /auth/refresh with a refresh token
/// }
/// let client = NetworkClient(configuration: .init(middlewares: [auth, RetryMiddleware()]))
/// ```
///
/// Which calls get the token: only requests to an allowed origin (scheme, host and port) —
/// ``allowedOrigins`` when given, else the origin each call was sent to first (its endpoint's or
/// the client's base URL), so a redirect to another origin never carries the token. Among
/// those, an endpoint says so with `CallTraits.authorization` (`.none` never — the login and
/// refresh calls themselves). A request from outside a `NetworkClient` (an OpenAPI-generated
/// client) has no call origin: it gets the token only with ``allowedOrigins`` set.
/// A request that already has an `Authorization` field is left alone.
public struct BearerTokenMiddleware: ClientMiddleware, CallMiddleware {
    /// The origins (scheme, host, port) the token may go to; empty: the origin of each call.
    public var allowedOrigins: [URL]
    /// A token expiring within this margin is refreshed before the call.
    public var refreshMargin: Duration
    /// Where refreshes and their failures are logged (never the token).
    public var logger: Logger
    private let token: @Sendable () async -> BearerTokenMiddleware.Token?
    private let refresher: TokenRefresher?

    /// A middleware that reads the current token from `token` and gets a new one from `refresh`
    /// (nil: no refreshing; a 401 is handed back). `refresh` receives the token that was refused
    /// (or is expiring) and returns the new one (it should also store it, so `token` returns it
    /// next), or nil or an error when it cannot.
    public init(
        allowedOrigins: [URL] = [],
        refreshMargin: Duration = .seconds(30),
        logger: Logger = Logger(label: "courier.auth"),
        token: @escaping @Sendable () async -> BearerTokenMiddleware.Token?,
        refresh: (@Sendable (_ rejected: BearerTokenMiddleware.Token?) async throws -> BearerTokenMiddleware.Token?)? = nil
    ) {
        self.allowedOrigins = allowedOrigins
        self.refreshMargin = refreshMargin
        self.logger = logger
        self.token = token
        self.refresher = refresh.map { TokenRefresher(current: token, refresh: $0) }
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
        guard request.headerFields[.authorization] == nil, wantsToken(baseURL, context) else {
            return try await next(request, body, baseURL)
        }
        var token = await self.token()
        // One refresh per call at most: ahead of expiry, or after a 401 — never both, never a loop.
        var refreshed = false
        if let current = token, current.expires(within: refreshMargin), let refresher {
            refreshed = true
            do {
                if let fresh = try await refresher.replacement(for: current, margin: refreshMargin, recorder: context?.recorder) { token = fresh }
            } catch {
                // Send the old token anyway: the server has the last word (and the clock may be off).
                if Task.isCancelled { throw CancellationError() }
                logger.notice(
                    "token refresh before expiry failed", metadata: ["operation": "\(operationID)", "error": "\(NetworkError(error).caseName)"])
            }
        }
        guard let sent = token else { return try await next(request, body, baseURL) }
        let (body, replayable) = try await ReplayableBody.make(body)
        context?.recorder?.record(.token(.attached))
        let (response, responseBody) = try await next(Self.authorized(request, sent), body, baseURL)
        guard response.status.code == 401, !refreshed, replayable, let refresher else { return (response, responseBody) }
        let fresh: BearerTokenMiddleware.Token?
        do {
            fresh = try await refresher.replacement(for: sent, margin: refreshMargin, recorder: context?.recorder)
        } catch {
            if Task.isCancelled { throw CancellationError() }
            let failure = NetworkError(error)
            logger.notice("token refresh failed", metadata: ["operation": "\(operationID)", "error": "\(failure.caseName)"])
            // Only a refresh the server rejected ends the login; a timeout, a refused connection
            // or a 5xx says nothing about the credentials, and the caller keeps them.
            throw Self.rejectsLogin(failure) ? NetworkError.unauthorized(401) : failure
        }
        // Nothing to refresh with (no refresh token): the server's own 401 answer stands.
        guard let fresh else { return (response, responseBody) }
        return try await next(Self.authorized(request, fresh), body, baseURL)
    }

    /// Whether a refresh that failed with `error` means the server refused the credentials (a 4xx
    /// answer other than 408 and 429), rather than a failure that may pass.
    static func rejectsLogin(_ error: NetworkError) -> Bool {
        switch error {
        case .networkError, .taskCancelled, .rateLimited, .serviceUnavailable, .serverError, .responseTooLarge, .invalidResponse: false
        default:
            if let code = error.statusCode { (400..<500).contains(code) && code != 408 && code != 429 } else { true }
        }
    }

    private func wantsToken(_ baseURL: URL, _ context: CallContext?) -> Bool {
        if context?.traits.authorization == CallTraits.Authorization.none { return false }
        if allowedOrigins.isEmpty { return context?.origin.map { Self.sameOrigin($0, baseURL) } ?? false }
        return allowedOrigins.contains { Self.sameOrigin($0, baseURL) }
    }

    private static func authorized(_ request: HTTPRequest, _ token: BearerTokenMiddleware.Token) -> HTTPRequest {
        var request = request
        request.headerFields[.authorization] = "Bearer \(token.value)"
        return request
    }

    /// Same scheme, host and port (the rule redirects use too).
    static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        RedirectHop.origin(of: a) == RedirectHop.origin(of: b)
    }
}
