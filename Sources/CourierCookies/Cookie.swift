import Courier
import CourierTransportCore
public import Foundation

/// One cookie as a ``CookieJar`` keeps it (RFC 6265 §5.3's storage model).
public struct Cookie: Sendable, Hashable {
    public var name: String
    public var value: String
    /// The host it was set by (``isHostOnly``), or the domain it applies to and every name below it.
    public var domain: String
    /// Sent only to ``domain`` itself, not to names below it (no `Domain` attribute was given).
    public var isHostOnly: Bool
    public var path: String
    /// When it expires; nil for a session cookie (kept until the jar is dropped).
    public var expires: Date?
    /// Sent only over `https`.
    public var isSecure: Bool
    /// `HttpOnly`: not for scripts (kept and sent like any other by an HTTP client).
    public var isHTTPOnly: Bool
    /// `SameSite` as the server gave it (`Strict`, `Lax`, `None`), kept and reported; an HTTP
    /// client makes no cross-site requests of its own to apply it to.
    public var sameSite: String?
    /// When it was first stored (a replacement keeps the original time): it orders cookies of
    /// equal path length.
    public var created: Date

    /// A cookie.
    public init(
        name: String, value: String, domain: String, isHostOnly: Bool = true, path: String = "/", expires: Date? = nil, isSecure: Bool = false,
        isHTTPOnly: Bool = false, sameSite: String? = nil, created: Date = Date()
    ) {
        self.name = name
        self.value = value
        self.domain = domain
        self.isHostOnly = isHostOnly
        self.path = path
        self.expires = expires
        self.isSecure = isSecure
        self.isHTTPOnly = isHTTPOnly
        self.sameSite = sameSite
        self.created = created
    }

    /// Whether it is sent with a request for `host` and `path` over a secure scheme or not.
    func matches(host: String, path requestPath: String, secure: Bool) -> Bool {
        if isSecure && !secure { return false }
        if isHostOnly ? host != domain : !CookieRules.domainMatches(host, domain) { return false }
        return CookieRules.pathMatches(requestPath, path)
    }
}
