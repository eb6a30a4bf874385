import Courier
import CourierTransportCore
public import Foundation
import Synchronization

/// Cookies as a browser keeps them (RFC 6265's storage model, with RFC 6265bis's rules that do not
/// contradict it): what `Set-Cookie` fields store, and the `Cookie` field a request gets.
///
/// ```swift
/// let jar = CookieJar()
/// let client = NetworkClient(configuration: .init(baseURL: api, middlewares: [CookieMiddleware(jar: jar)]))
/// ```
///
/// Stored: host-only cookies (no `Domain`) for their host alone, domain cookies for the domain and
/// the names below it — never for a public suffix (`com`, `co.uk`, `github.io`: the Public Suffix
/// List) nor for a domain the setting host is not within; `Path` (or the request's directory),
/// `Secure` (set and sent only over `https`), `HttpOnly`, `SameSite`, `Max-Age` before `Expires`,
/// any expiry at most 400 days ahead; a cookie of the same name, domain and path replaces the old
/// one and keeps its creation time; an expiry in the past deletes it. Refused: control characters,
/// a name and value over 4096 bytes, `__Secure-` and `__Host-` names without what their prefix
/// demands, a non-`https` response shadowing a `Secure` cookie. Sent: matching domain, path and
/// scheme, longer paths first, then the earlier created. At most 180 cookies per domain and 3000 in
/// all (the oldest go first).
public final class CookieJar: Sendable {
    struct Entry {
        var cookie: Cookie
        /// Order of storing: cookies created in the same instant keep the order they came in.
        var sequence: Int
    }

    /// A cookie's identity: a new one of the same name, domain and path replaces it.
    struct Key: Hashable {
        var name: String
        var domain: String
        var path: String

        init(_ cookie: Cookie) {
            (name, domain, path) = (cookie.name, cookie.domain, cookie.path)
        }
    }

    struct State {
        var list: [Entry] = []
        var next = 0
        /// What responses set or deleted since the jar was last loaded or saved (nil: deleted) —
        /// what ``save(to:)`` merges into the file.
        var changes: [Key: Cookie?] = [:]
    }

    private let entries = Mutex(State())
    private let clock: @Sendable () -> Date

    /// Cookies kept per domain, at most.
    public static let maxPerDomain = 180
    /// Cookies kept in all, at most.
    public static let maxCookies = 3000
    /// The furthest ahead an expiry may be (RFC 6265bis §5.6: 400 days).
    public static let maxLifetime: TimeInterval = 400 * 86_400

    /// An empty jar; `clock` tells the time (tests set it).
    public init(clock: @escaping @Sendable () -> Date = { Date() }) {
        self.clock = clock
    }

    /// Stores what the `Set-Cookie` fields `fields` (in the order received) of a response to `url` set.
    public func store(_ fields: [String], from url: URL) {
        guard let host = Self.host(of: url) else { return }
        let secure = Self.isSecure(url)
        let requestPath = Self.path(of: url)
        let now = clock()
        for field in fields {
            guard let parsed = SetCookie(field), let cookie = Self.cookie(parsed, host: host, secure: secure, requestPath: requestPath, now: now)
            else { continue }
            insert(cookie, secureOrigin: secure, now: now)
        }
    }

    /// The `Cookie` field value for a request to `url`, or nil when no cookie goes with it.
    public func cookieHeader(for url: URL) -> String? {
        let cookies = cookies(for: url)
        guard !cookies.isEmpty else { return nil }
        return cookies.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    }

    /// The cookies a request to `url` gets, in the order they are sent.
    public func cookies(for url: URL) -> [Cookie] {
        guard let host = Self.host(of: url) else { return [] }
        let secure = Self.isSecure(url)
        let path = Self.path(of: url)
        let now = clock()
        let matching = entries.withLock { state in
            state.list.removeAll { $0.cookie.expires.map { $0 <= now } ?? false }
            return state.list.filter { $0.cookie.matches(host: host, path: path, secure: secure) }
        }
        return matching.sorted { a, b in
            if a.cookie.path.count != b.cookie.path.count { return a.cookie.path.count > b.cookie.path.count }
            if a.cookie.created != b.cookie.created { return a.cookie.created < b.cookie.created }
            return a.sequence < b.sequence
        }.map(\.cookie)
    }

    /// Every cookie kept and not expired, in the order they were first stored.
    public var all: [Cookie] {
        let now = clock()
        return entries.withLock { state in
            state.list.removeAll { $0.cookie.expires.map { $0 <= now } ?? false }
            return state.list.sorted { ($0.cookie.created, $0.sequence) < ($1.cookie.created, $1.sequence) }.map(\.cookie)
        }
    }

    /// Adds `cookie` as it is (from a file, or made by hand), replacing one of the same name,
    /// domain and path.
    public func add(_ cookie: Cookie) {
        entries.withLock { state in
            state.list.removeAll { Key($0.cookie) == Key(cookie) }
            state.list.append(Entry(cookie: cookie, sequence: state.next))
            state.next += 1
            state.changes[Key(cookie)] = cookie
        }
    }

    /// Runs `body` on the jar's state, under its lock (for loading and saving).
    func withState<T>(_ body: (inout State) -> T) -> T {
        entries.withLock { body(&$0) }
    }

    /// Forgets every cookie.
    public func removeAll() {
        entries.withLock { state in
            for entry in state.list { state.changes[Key(entry.cookie)] = .some(nil) }
            state.list.removeAll()
        }
    }

    /// The cookie `parsed` describes for a response from `host`, or nil when it is to be ignored.
    private static func cookie(_ parsed: SetCookie, host: String, secure: Bool, requestPath: String, now: Date) -> Cookie? {
        var expires: Date?
        if let maxAge = parsed.maxAge {
            expires = maxAge <= 0 ? Date.distantPast : now.addingTimeInterval(min(Double(maxAge), maxLifetime))
        } else if let date = parsed.expires {
            expires = min(date, now.addingTimeInterval(maxLifetime))
        }
        var domain = parsed.domain ?? ""
        if !domain.isEmpty, PublicSuffixList.isPublicSuffix(domain) {
            // A public suffix names no site — unless it is the very host (then the cookie is host-only).
            guard domain == host else { return nil }
            domain = ""
        }
        if !domain.isEmpty, !CookieRules.domainMatches(host, domain) { return nil }
        let path = parsed.path ?? CookieRules.defaultPath(requestPath)
        // RFC 6265bis: Secure only from a secure origin; the prefixes demand what they say.
        if parsed.secure && !secure { return nil }
        let lowered = parsed.name.lowercased()
        if lowered.hasPrefix("__secure-"), !(parsed.secure && secure) { return nil }
        if lowered.hasPrefix("__host-"), !(parsed.secure && secure && parsed.domain == nil && parsed.path == "/") { return nil }
        return Cookie(
            name: parsed.name, value: parsed.value, domain: domain.isEmpty ? host : domain, isHostOnly: domain.isEmpty, path: path,
            expires: expires, isSecure: parsed.secure, isHTTPOnly: parsed.httpOnly, sameSite: parsed.sameSite, created: now)
    }

    private func insert(_ cookie: Cookie, secureOrigin: Bool, now: Date) {
        entries.withLock { state in
            // RFC 6265bis §5.6 step 16: an insecure response never shadows a Secure cookie.
            if !secureOrigin,
                state.list.contains(where: { existing in
                    existing.cookie.isSecure && existing.cookie.name == cookie.name
                        && (CookieRules.domainMatches(cookie.domain, existing.cookie.domain)
                            || CookieRules.domainMatches(existing.cookie.domain, cookie.domain))
                        && CookieRules.pathMatches(cookie.path, existing.cookie.path)
                })
            {
                return
            }
            var stored = cookie
            if let index = state.list.firstIndex(where: { Key($0.cookie) == Key(cookie) }) {
                stored.created = state.list[index].cookie.created
                state.list.remove(at: index)
            }
            if let expires = stored.expires, expires <= now {  // expired: a deletion
                state.changes[Key(cookie)] = .some(nil)
                return
            }
            state.changes[Key(cookie)] = stored
            state.list.append(Entry(cookie: stored, sequence: state.next))
            state.next += 1
            Self.evict(&state.list, domain: stored.domain, now: now)
        }
    }

    /// Drops expired cookies, then the oldest of `domain` past its bound, then the oldest past the total.
    private static func evict(_ list: inout [Entry], domain: String, now: Date) {
        list.removeAll { $0.cookie.expires.map { $0 <= now } ?? false }
        let ofDomain = list.indices.filter { list[$0].cookie.domain == domain }
        if ofDomain.count > maxPerDomain {
            let oldest = Set(ofDomain.sorted { list[$0].sequence < list[$1].sequence }.prefix(ofDomain.count - maxPerDomain))
            list = list.enumerated().filter { !oldest.contains($0.offset) }.map(\.element)
        }
        if list.count > maxCookies {
            list.sort { $0.sequence < $1.sequence }
            list.removeFirst(list.count - maxCookies)
        }
    }

    /// The request host as cookies compare it: lowercase.
    static func host(of url: URL) -> String? {
        guard let host = url.host, !host.isEmpty else { return nil }
        return host.lowercased()
    }

    static func isSecure(_ url: URL) -> Bool {
        let scheme = url.scheme?.lowercased()
        return scheme == "https" || scheme == "wss"
    }

    /// The URL's path as sent (percent-encoded), "/" when empty.
    static func path(of url: URL) -> String {
        let path = URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedPath ?? url.path
        return path.isEmpty ? "/" : path
    }
}
