public import Foundation
public import HTTPTypes

/// A GET of an absolute `http(s)` URL — a link an API hands out (a poster image, a next page, a
/// presigned download) rather than a path of its own — sent as given: its path and query go out
/// byte for byte (``Endpoint/requestTarget``), so flag items (`?uploads`), `+`, `;`, `//` and a
/// signature's `%2F` reach the server as the link has them. Send it with a client that has no
/// `NetworkClient.Configuration.baseURL` (which would take the place of the URL's server).
///
/// ```swift
/// guard let poster = URLEndpoint(URL(string: "https://example.com/img/1.jpg?thumb=Y")!) else { return }
/// let image = try await NetworkClient().response(poster).body
/// ```
public struct URLEndpoint: Endpoint {
    public let baseURL: URL
    /// The URL's path and query, as the request line carries them.
    public let requestTarget: String?
    /// The URL's path as given (percent-encoded; informational: ``requestTarget`` is what is sent).
    public var path: String { String((requestTarget ?? "/").prefix { $0 != "?" }) }
    public var method: HTTPMethod { .get }
    public var task: HTTPTask { .requestPlain }

    /// The GET of `url`; nil unless it is an `http(s)` URL with a host.
    public init?(_ url: URL) {
        guard let parts = Self.parts(of: url.absoluteString) else { return nil }
        self.baseURL = parts.baseURL
        self.requestTarget = parts.requestTarget
    }

    /// Query items by name as parameters: one value as itself, several as an array.
    public static func parameters(_ query: [String: [String]]) -> RequestParameters {
        query.mapValues { values -> any Sendable in values.count == 1 ? values[0] : values }
    }

    /// `text` split into its server (scheme, host, port; userinfo left out) and its request
    /// target: the path and query as sent (see ``Endpoint/requestTarget``); nil unless it is an
    /// `http(s)` URL with a host.
    ///
    /// ```swift
    /// URLEndpoint.parts(of: "https://Example.com:8443/a//b?0001&y=a+b#top")
    /// // (https://example.com:8443, "/a//b?0001&y=a+b")
    /// ```
    public static func parts(of text: String) -> (baseURL: URL, requestTarget: String)? {
        RequestTarget.split(text).map { ($0.baseURL, $0.target) }
    }
}
