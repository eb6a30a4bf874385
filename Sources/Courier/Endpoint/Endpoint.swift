public import Foundation
public import HTTPTypes

/// The HTTP method of an ``Endpoint`` (swift-http-types' method: `.get`, `.post`, `.put`, `.patch`, `.delete` …).
public typealias HTTPMethod = HTTPRequest.Method

/// One call of an API, described as data. An `enum` with a case per call reads like the API's
/// table of contents:
///
/// ```swift
/// enum UserAPI: Endpoint {
///     case get(id: Int)
///     var baseURL: URL { URL(string: "https://api.example.com")! }
///     var path: String { switch self { case .get(let id): "/api/v1/users/\(id)" } }
///     var method: HTTPMethod { .get }
///     var task: HTTPTask { .requestPlain }
///     var headers: [String: String]? { nil }
/// }
/// ```
///
/// Everything beyond the five seed requirements has a default.
public protocol Endpoint: Sendable {
    /// The scheme, host, port and optional base path, e.g. `https://api.example.com/v0`: where
    /// the API lives by default. A client made with ``NetworkClient/Configuration/baseURL``
    /// sends the call to that server instead (the sandbox, a mirror, staging).
    var baseURL: URL { get }
    /// The path appended to ``baseURL``, as plain text: each `/`-separated segment is
    /// percent-encoded for you (Korean, spaces and `+` are fine). Use ``pathSegments`` for a
    /// segment that itself contains `/`.
    var path: String { get }
    /// The HTTP method.
    var method: HTTPMethod { get }
    /// Body and query.
    var task: HTTPTask { get }
    /// Extra header fields for this call.
    var headers: [String: String]? { get }

    /// The path as segments; defaults to ``path`` split on `/` (a trailing `/` kept as an empty
    /// last segment). Each segment is percent-encoded.
    var pathSegments: [String] { get }
    /// The path and query of a URL given whole (`/a//b?0001&y=a+b`), sent as given instead of
    /// ``pathSegments``: query order, items without `=`, `+`, `;`, `//` and every `%xx` kept; only
    /// what may not appear in a URL is percent-encoded (a space as `%20`, `ü` as `%C3%BC`), the
    /// fragment is dropped and `.`/`..` segments are resolved, as curl does. Query items from
    /// ``task`` are appended after it. Defaults to nil; ``URLEndpoint`` sets it.
    var requestTarget: String? { get }
    /// How the status code maps to success or a ``NetworkError``; defaults to ``StatusMapping/standard``.
    var statusMapping: StatusMapping { get }
    /// The deadline for the whole call; nil uses the client's default.
    var timeout: Duration? { get }
    /// Values that must never be logged (an API key in the path or the query, a token …).
    /// Logging replaces them wherever they appear.
    var secrets: [String] { get }
    /// How a successful body becomes a value; defaults to JSON through the client's decoder.
    var responseDecoding: any ResponseDecoding { get }
    /// What middlewares should know about this call (authorization, idempotency,
    /// de-duplication); defaults to `CallTraits.init(authorization:idempotent:deduplicable:)`'s defaults.
    var traits: CallTraits { get }
}

/// The seminar's and Moya's name for ``Endpoint``.
public typealias TargetType = Endpoint

extension Endpoint {
    public var headers: [String: String]? { nil }
    public var pathSegments: [String] {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        // A trailing slash is part of the resource's name (`/users/` is not `/users`): kept as
        // an empty last segment.
        return path.hasSuffix("/") && !segments.isEmpty ? segments + [""] : segments
    }
    public var requestTarget: String? { nil }
    public var statusMapping: StatusMapping { .standard }
    public var timeout: Duration? { nil }
    public var secrets: [String] { [] }
    public var responseDecoding: any ResponseDecoding { JSONResponseDecoding() }
    public var traits: CallTraits { CallTraits() }
}

extension Endpoint {
    /// The request head a ``NetworkClient`` would send for this call (path percent-encoded, or
    /// ``requestTarget`` as given; parameters' query sorted and encoded; header fields set) — for tests that match requests by endpoint, such
    /// as CourierTesting's `StubTransport`.
    public func httpRequest(encoder: JSONEncoder = JSONEncoder()) throws(NetworkError) -> HTTPRequest {
        try RequestBuilder(encoder: encoder).build(self).request
    }
}
