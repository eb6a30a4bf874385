public import Foundation

/// A proxy a request goes through: an HTTP proxy (plain `http` URLs are sent to it as well — through
/// a `CONNECT` tunnel, as AsyncHTTPClient does for every URL, so a proxy that allows `CONNECT`
/// only to port 443 refuses them) or a SOCKS5 proxy.
public struct HTTPProxy: Sendable, Hashable, CustomStringConvertible {
    /// What kind of proxy.
    public enum Kind: Sendable, Hashable {
        /// An HTTP proxy (`http://host:port`), reached by `CONNECT`.
        case http
        /// A SOCKS5 proxy (`socks5://` or `socks5h://host:port`; names resolved by the proxy).
        case socks5
    }

    public var kind: Kind
    public var host: String
    public var port: Int
    /// Basic credentials for an HTTP proxy (`http://user:password@host:port`).
    public var username: String?
    public var password: String?

    /// A proxy.
    public init(kind: Kind, host: String, port: Int, username: String? = nil, password: String? = nil) {
        self.kind = kind
        self.host = host
        self.port = port
        self.username = username
        self.password = password
    }

    /// The proxy a URL names, as curl reads `--proxy` and the proxy variables: `http://`,
    /// `socks5://` or `socks5h://`, or a bare `host:port` (HTTP); the port defaults to 1080 for
    /// SOCKS and to 80 otherwise (curl's 1080 for a bare HTTP proxy is rarely what is meant).
    /// Credentials are percent-decoded. A SOCKS5 proxy with credentials is refused: AsyncHTTPClient
    /// has no SOCKS authentication (and stops the process on a precondition if handed one).
    public init(url text: String) throws(ProxyError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let withScheme = trimmed.contains("://") ? trimmed : "http://" + trimmed
        guard let components = URLComponents(string: withScheme), let host = components.host, !host.isEmpty else {
            throw .invalid(Self.redacted(trimmed))
        }
        let scheme = components.scheme?.lowercased() ?? "http"
        switch scheme {
        case "http": kind = .http
        case "socks5", "socks5h": kind = .socks5
        default: throw .unsupportedScheme(scheme)
        }
        self.host = host
        port = components.port ?? (kind == .socks5 ? 1080 : 80)
        guard (1...65_535).contains(port) else { throw .invalid(Self.redacted(trimmed)) }
        username = components.percentEncodedUser.flatMap { $0.removingPercentEncoding }
        password = components.percentEncodedPassword.flatMap { $0.removingPercentEncoding }
        if kind == .socks5, username != nil || password != nil { throw .socksCredentials }
    }

    /// `kind://host:port`, never the credentials.
    public var description: String {
        "\(kind == .http ? "http" : "socks5")://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }

    /// A proxy URL with its password replaced, for messages.
    static func redacted(_ text: String) -> String {
        guard let at = text.lastIndex(of: "@"), let schemeEnd = text.range(of: "://")?.upperBound ?? Optional(text.startIndex),
            schemeEnd <= at
        else { return text }
        return String(text[..<schemeEnd]) + "***" + String(text[at...])
    }
}

/// Why a proxy setting cannot be used.
public enum ProxyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not a proxy URL (shown without its credentials).
    case invalid(String)
    /// A scheme other than `http`, `socks5`, `socks5h`.
    case unsupportedScheme(String)
    /// `socks5://user:password@…`: AsyncHTTPClient cannot authenticate to a SOCKS proxy.
    case socksCredentials

    public var description: String {
        switch self {
        case .invalid(let text): "'\(text)' is not a proxy URL (http://host:port or socks5://host:port)"
        case .unsupportedScheme(let scheme): "proxy scheme '\(scheme)' is not supported (http, socks5, socks5h)"
        case .socksCredentials: "a SOCKS5 proxy with a user name or password is not supported (AsyncHTTPClient has no SOCKS authentication)"
        }
    }
}

/// Which proxy each URL goes through: one for `http` URLs, one for `https`, and hosts that go
/// direct. Rules read from the environment send loopback hosts (`localhost`, `*.localhost`,
/// 127.0.0.0/8, `::1`) direct — a local server is never reached through a proxy someone set for
/// the internet; rules given explicitly send them through the proxy too, as curl's `--proxy` does.
///
/// ```swift
/// // curl's rules, from a given environment (never the process's unless you pass it):
/// let rules = try ProxyRules(environment: ProcessInfo.processInfo.environment)
/// var settings = HTTPClientTransport.Settings()
/// settings.proxy = rules
/// ```
public struct ProxyRules: Sendable, Equatable {
    /// The proxy for `http` URLs.
    public var http: HTTPProxy?
    /// The proxy for `https` URLs.
    public var https: HTTPProxy?
    /// Hosts that go direct: a name matches itself and every name below it (a leading dot is
    /// ignored), an IP address itself; `*` alone matches every host.
    public var noProxy: [String]
    /// Loopback hosts go direct whatever the rules say (true for rules from the environment).
    public var loopbackDirect: Bool

    /// Rules: `http` and `https` through these proxies, `noProxy` direct.
    public init(http: HTTPProxy? = nil, https: HTTPProxy? = nil, noProxy: [String] = [], loopbackDirect: Bool = false) {
        self.http = http
        self.https = https
        self.noProxy = noProxy
        self.loopbackDirect = loopbackDirect
    }

    /// One proxy for every URL.
    public init(all proxy: HTTPProxy, noProxy: [String] = [], loopbackDirect: Bool = false) {
        self.init(http: proxy, https: proxy, noProxy: noProxy, loopbackDirect: loopbackDirect)
    }

    /// curl's reading of the proxy variables in `environment`: `http_proxy` in lower case only —
    /// the upper-case form is ignored, since a CGI server sets `HTTP_PROXY` from a request's
    /// `Proxy:` header ("httpoxy") —, `https_proxy` / `HTTPS_PROXY`, `all_proxy` / `ALL_PROXY` for
    /// a scheme without its own, `no_proxy` / `NO_PROXY` (comma-separated). Lower case wins
    /// where both are set. Empty values are unset.
    public init(environment: [String: String]) throws(ProxyError) {
        func value(_ names: String...) -> String? {
            names.lazy.compactMap { environment[$0] }.first { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        }
        let all = try value("all_proxy", "ALL_PROXY").map { (text: String) throws(ProxyError) in try HTTPProxy(url: text) }
        http = try value("http_proxy").map { (text: String) throws(ProxyError) in try HTTPProxy(url: text) } ?? all
        https = try value("https_proxy", "HTTPS_PROXY").map { (text: String) throws(ProxyError) in try HTTPProxy(url: text) } ?? all
        noProxy = (value("no_proxy", "NO_PROXY") ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        loopbackDirect = true
    }

    /// Whether any proxy is set.
    public var isEmpty: Bool { http == nil && https == nil }

    /// The proxy `url` goes through, or nil for a direct connection.
    public func proxy(for url: URL) -> HTTPProxy? {
        guard let host = url.host?.lowercased(), !host.isEmpty else { return nil }
        let scheme = url.scheme?.lowercased()
        let proxy = scheme == "https" || scheme == "wss" ? https : http
        guard let proxy, !(loopbackDirect && Self.isLoopback(host)), !bypasses(host) else { return nil }
        return proxy
    }

    /// Whether `host` is in ``noProxy``.
    func bypasses(_ host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        for entry in noProxy {
            if entry == "*" { return true }
            var pattern = entry.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
            if pattern.hasPrefix("*.") { pattern.removeFirst(2) } else if pattern.hasPrefix(".") { pattern.removeFirst() }
            if let colon = pattern.lastIndex(of: ":"), !pattern.contains("::"), pattern.filter({ $0 == ":" }).count == 1 {
                pattern = String(pattern[..<colon])  // host:port — curl matches the host
            }
            if bare == pattern || bare.hasSuffix("." + pattern) { return true }
        }
        return false
    }

    /// `localhost`, a name under `.localhost`, 127.0.0.0/8 or `::1`: never through an environment proxy.
    static func isLoopback(_ host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return bare == "localhost" || bare.hasSuffix(".localhost") || bare.hasPrefix("127.") || bare == "::1"
            || bare == "0:0:0:0:0:0:0:1"
    }
}
