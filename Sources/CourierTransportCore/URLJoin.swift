package import Foundation

/// How Courier's transports and middlewares turn a base URL and a request path into one URL string.
package enum URLJoin {
    /// `baseURL` + `path`, with exactly one `/` between them.
    package static func join(_ baseURL: URL, _ path: String) -> String {
        var base = baseURL.absoluteString
        if base.hasSuffix("/") { base.removeLast() }
        return path.hasPrefix("/") ? base + path : base + "/" + path
    }
}
