import Foundation
import HTTPTypes
import OpenAPIRuntime

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The next request after a redirect, under the rules every hop is held to — curl's and the
/// browsers': credentials never follow a redirect to another origin (CVE-2018-1000007,
/// CVE-2022-27776), never downgrade `https` to `http` unless allowed, never leave http/https.
struct RedirectHop: Sendable {
    var request: HTTPRequest
    var body: HTTPBody?
    var baseURL: URL
    /// The target's host, lowercased, when its scheme is plain `http` (for the insecure-host rule).
    var plainHTTPHost: String?

    /// Headers that carry credentials: dropped when a hop changes origin.
    static let credentialFields: [HTTPField.Name] = [.authorization, .cookie, .proxyAuthorization]
    /// Headers that describe a body: dropped when a hop drops the body.
    private static let bodyFields: [HTTPField.Name] = [.contentType, .contentLength, .contentEncoding, .transferEncoding]

    /// The hop after `head`, the answer to `request` sent to `baseURL`; nil when `head` is not a
    /// redirect to follow (not a 3xx redirect, no `Location`, a body that cannot be replayed for a
    /// 307/308, or `policy` says no) — the 3xx is then the answer. Throws for a target the rules
    /// refuse.
    static func next(
        after head: HTTPResponse, request: HTTPRequest, body: HTTPBody?, baseURL: URL,
        secrets: [String], policy: RedirectPolicy
    ) throws(NetworkError) -> RedirectHop? {
        let code = head.status.code
        guard policy.follows, [301, 302, 303, 307, 308].contains(code), let location = head.headerFields[.location] else {
            return nil
        }
        let from = URL(string: URLJoin.join(baseURL, request.path ?? "/"))
        // The target as given (only what may not appear in a URL encoded), resolved as RFC 3986
        // says: `Location` is untrusted, but its bytes are bounded by the response head's limits.
        guard let from, let target = URL(string: RequestTarget.reference(location), relativeTo: from)?.absoluteURL,
            var components = URLComponents(url: target, resolvingAgainstBaseURL: false)
        else { throw .networkError(URLError(.redirectToNonExistentLocation)) }
        let scheme = components.scheme?.lowercased() ?? ""
        guard scheme == "http" || scheme == "https" else { throw .networkError(URLError(.unsupportedURL)) }
        guard let host = components.host, !host.isEmpty else { throw .networkError(URLError(.redirectToNonExistentLocation)) }
        if scheme == "http", from.scheme?.lowercased() == "https", !policy.allowsHTTPSDowngrade {
            throw .insecureURL(host: host.lowercased())
        }
        if let decide = policy.decide, !decide(from, target, code) { return nil }

        var next = request
        var nextBody = body
        // 303 always, 301/302 for POST (what every browser does): the next hop is a GET without a body.
        if (code == 303 && request.method != .head) || ((code == 301 || code == 302) && request.method == .post) {
            next.method = .get
            nextBody = nil
            for name in bodyFields { next.headerFields[name] = nil }
        } else if let body, body.iterationBehavior == .single {
            return nil  // a 307/308 must resend the body, and this one cannot be read twice
        }
        let crossOrigin = origin(of: from) != origin(of: target)
        if crossOrigin {
            for name in credentialFields { next.headerFields[name] = nil }
            if !secrets.isEmpty {
                next.headerFields = HTTPFields(next.headerFields.filter { field in !secrets.contains { field.value.contains($0) } })
                components.percentEncodedQuery = components.percentEncodedQuery.map { withoutSecrets($0, secrets) }
            }
        }
        // The request path keeps the target's encoding; the base URL is its origin alone.
        var path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { path += "?" + query }
        next.path = path
        components.user = nil
        components.password = nil
        components.percentEncodedPath = ""
        components.percentEncodedQuery = nil
        components.fragment = nil
        guard let nextBase = components.url else { throw .networkError(URLError(.redirectToNonExistentLocation)) }
        return RedirectHop(request: next, body: nextBody, baseURL: nextBase, plainHTTPHost: scheme == "http" ? host.lowercased() : nil)
    }

    /// `query` without the items that hold a secret (as written or decoded); the others kept as
    /// they are, in order.
    private static func withoutSecrets(_ query: String, _ secrets: [String]) -> String {
        let items = query.split(separator: "&", omittingEmptySubsequences: false).filter { item in
            !secrets.contains { item.contains($0) || item.removingPercentEncoding?.contains($0) == true }
        }
        return items.joined(separator: "&")
    }

    /// Scheme, host and effective port: what decides whether credentials may go along.
    static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : -1)
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
    }
}
