public import Foundation
public import HTTPTypes

/// A GET of an absolute `http(s)` URL — a link an API hands out (a poster image, a next page)
/// rather than a path of its own. Send it with a client that has no
/// `NetworkClient.Configuration.baseURL` (which would take the place of the URL's server).
///
/// ```swift
/// guard let poster = URLEndpoint(URL(string: "https://example.com/img/1.jpg?thumb=Y")!) else { return }
/// let image = try await NetworkClient().response(poster).body
/// ```
public struct URLEndpoint: Endpoint {
    public let baseURL: URL
    public let pathSegments: [String]
    public let task: HTTPTask
    public var path: String { "/" + pathSegments.joined(separator: "/") }
    public var method: HTTPMethod { .get }

    /// The GET of `url`; nil unless it is an `http(s)` URL with a host.
    public init?(_ url: URL) {
        guard let parts = Self.parts(of: url.absoluteString) else { return nil }
        self.baseURL = parts.baseURL
        self.pathSegments = parts.pathSegments
        let parameters = Self.parameters(parts.query)
        self.task = parameters.isEmpty ? .requestPlain : .requestParameters(parameters, encoding: .url)
    }

    /// Query items by name as parameters: one value as itself, several as an array.
    public static func parameters(_ query: [String: [String]]) -> RequestParameters {
        query.mapValues { values -> any Sendable in values.count == 1 ? values[0] : values }
    }

    /// `text` split into its server (scheme, host, port), decoded path segments and query items
    /// (by name, in order); nil unless it is an `http(s)` URL with a host.
    public static func parts(of text: String) -> (baseURL: URL, pathSegments: [String], query: [String: [String]])? {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            ["http", "https"].contains(scheme), let host = components.host, !host.isEmpty
        else { return nil }
        var base = URLComponents()
        base.scheme = scheme
        base.host = host
        base.port = components.port
        guard let baseURL = base.url else { return nil }
        var query: [String: [String]] = [:]
        for item in components.queryItems ?? [] { query[item.name, default: []].append(item.value ?? "") }
        let segments = components.path.split(separator: "/").map(String.init)
        // `/a/` is not `/a`: a trailing slash stays, as an empty last segment.
        return (baseURL, components.path.hasSuffix("/") && !segments.isEmpty ? segments + [""] : segments, query)
    }
}
