public import Foundation

/// Whether and how a ``NetworkClient`` follows redirects.
///
/// Transports never follow redirects: the client follows each hop itself, through the
/// middlewares, so a cookie jar, a logger or a cache sees every hop. On every hop the rules of
/// `RedirectHop` hold whatever the policy says: credentials (`Authorization`, `Cookie`,
/// `Proxy-Authorization`, and the endpoint's secrets) never go to another origin, only `http`
/// and `https` targets are followed, and at most `CallLimits.maxRedirects` hops.
///
/// ```swift
/// // Follow only within the API's own host.
/// let policy = RedirectPolicy { from, to, _ in from.host == to.host }
/// ```
public struct RedirectPolicy: Sendable {
    /// Whether redirects are followed at all (false: every 3xx is the answer).
    public var follows: Bool
    /// Whether an `https` URL may redirect to plain `http` (false: `insecureURL(host:)`).
    public var allowsHTTPSDowngrade: Bool
    /// Asked before each hop that the rules allow, with the URL redirected from, the target and
    /// the status; false ends the call with the 3xx as its answer.
    public var decide: (@Sendable (_ from: URL, _ to: URL, _ status: Int) -> Bool)?

    /// A policy: follow (by default), no downgrade to `http` unless allowed, every hop the rules
    /// allow unless `decide` says no.
    public init(
        follows: Bool = true,
        allowsHTTPSDowngrade: Bool = false,
        decide: (@Sendable (_ from: URL, _ to: URL, _ status: Int) -> Bool)? = nil
    ) {
        self.follows = follows
        self.allowsHTTPSDowngrade = allowsHTTPSDowngrade
        self.decide = decide
    }

    /// Never follow: every 3xx is the answer.
    public static let none = RedirectPolicy(follows: false)

    /// Follow only to the same origin (scheme, host and port) as the hop redirected from; a
    /// redirect elsewhere is the answer.
    public static let sameOrigin = RedirectPolicy { from, to, _ in
        NetworkResponse.Redirect.origin(of: from) == NetworkResponse.Redirect.origin(of: to)
    }
}

extension NetworkResponse {
    /// One redirect a call followed: from where, to where, with which status.
    ///
    /// ```swift
    /// let answer = try await client.response(Links.short("x7"))
    /// for step in answer.redirects { print(step.status, step.from, "→", step.to) }
    /// ```
    public struct Redirect: Sendable, Equatable {
        /// The URL that answered with the redirect.
        public let from: URL
        /// The URL the next hop asked.
        public let to: URL
        /// The 3xx status.
        public let status: Int

        /// A step.
        public init(from: URL, to: URL, status: Int) {
            self.from = from
            self.to = to
            self.status = status
        }

        /// Scheme, host (lowercase) and port (the scheme's default when none is written).
        static func origin(of url: URL) -> String {
            let scheme = url.scheme?.lowercased() ?? ""
            let port = url.port ?? (scheme == "https" || scheme == "wss" ? 443 : 80)
            return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
        }
    }
}
