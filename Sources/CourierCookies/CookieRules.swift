import Courier
import CourierTransportCore
import Foundation

/// RFC 6265's matching rules (§5.1.3, §5.1.4).
enum CookieRules {
    /// §5.1.3: `host` is `domain`, or ends with `.domain` and is a name, not an IP address.
    static func domainMatches(_ host: String, _ domain: String) -> Bool {
        if host == domain { return true }
        guard host.hasSuffix("." + domain), !isIPAddress(host) else { return false }
        return true
    }

    /// §5.1.4: `cookiePath` is `path`, or a prefix of it that ends with `/` or is followed by `/`.
    static func pathMatches(_ path: String, _ cookiePath: String) -> Bool {
        if path == cookiePath { return true }
        guard path.hasPrefix(cookiePath) else { return false }
        return cookiePath.hasSuffix("/") || path.dropFirst(cookiePath.count).hasPrefix("/")
    }

    /// §5.1.4: the directory of the request path — "/" for none, a relative one or a single segment.
    static func defaultPath(_ path: String) -> String {
        guard path.hasPrefix("/"), let last = path.lastIndex(of: "/"), last != path.startIndex else { return "/" }
        return String(path[..<last])
    }

    /// An IPv4 dotted quad or an IPv6 address (which URL hosts give in brackets or bare).
    static func isIPAddress(_ host: String) -> Bool {
        if host.contains(":") || host.hasPrefix("[") { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { part in !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCII) && part.allSatisfy(\.isNumber) }
    }
}
