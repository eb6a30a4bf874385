/// The names the sandbox answers to in a request's `Host`: 127.0.0.1, localhost and [::1], the
/// interface it was told to bind (unless that is a wildcard), and the names given in
/// ``SandboxServer/Options/extraHostNames``.
///
/// Checking them is what stops DNS rebinding: a web page on `evil.example` whose name is made to
/// resolve to 127.0.0.1 reaches the port, but its browser still sends `Host: evil.example:PORT`.
struct SandboxHostNames: Sendable, Equatable {
    /// Host parts, lowercased, IPv6 addresses in brackets.
    let names: Set<String>

    /// The loopback names every sandbox answers to.
    static let loopback: Set<String> = ["127.0.0.1", "localhost", "[::1]"]

    /// The names for a sandbox bound to `boundHost` with `extra` names.
    init(boundHost: String, extra: [String]) {
        var names = Self.loopback
        // A wildcard is not a name anyone types; a concrete interface is what clients dial.
        if !["", "0.0.0.0", "::", "[::]"].contains(boundHost) { names.insert(Self.normalized(boundHost)) }
        for name in extra where !name.isEmpty { names.insert(Self.normalized(name)) }
        self.names = names
    }

    /// A name as compared: lowercased, a bare IPv6 address put in brackets as in a `Host` value.
    static func normalized(_ name: String) -> String {
        let lower = name.lowercased()
        return lower.contains(":") && !lower.hasPrefix("[") ? "[\(lower)]" : lower
    }

    /// Whether `authority` (a `Host` value) names this sandbox on `port`: one of ``names``,
    /// either alone or with exactly `port` (when `port` is unknown, any port).
    func allows(_ authority: Substring, port: Int?) -> Bool {
        guard let (host, given) = Self.split(authority) else { return false }
        if let given, let port, given != port { return false }
        return names.contains(host.lowercased())
    }

    /// `host[:port]` or `[v6][:port]` → host and port; nil when the value is neither (a port
    /// that is empty, not digits or over 65535; two colons outside brackets; userinfo).
    static func split(_ authority: Substring) -> (host: Substring, port: Int?)? {
        let host: Substring
        let rest: Substring
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[...close]
            rest = authority[authority.index(after: close)...]
        } else if let colon = authority.firstIndex(of: ":") {
            host = authority[..<colon]
            rest = authority[colon...]
        } else {
            host = authority
            rest = ""
        }
        guard !host.isEmpty, !host.contains("@") else { return nil }
        if rest.isEmpty { return (host, nil) }
        let digits = rest.dropFirst()
        guard rest.first == ":", (1...5).contains(digits.utf8.count), digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            let port = Int(digits), port <= 65535
        else { return nil }
        return (host, port)
    }
}
