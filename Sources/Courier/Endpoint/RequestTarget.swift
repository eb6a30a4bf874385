import Foundation

/// A URL given whole, sent as given (DESIGN.md, "URLs as given"; curl is the reference): the
/// path and query go out byte for byte — query order, flag items without `=`, `+`, `;`, `//`
/// and every `%xx` exactly as written, hex case included. Only what may not appear in a URL is
/// percent-encoded, as UTF-8 with upper-case hex (a space as `%20`, never `+`; `ü` as `%C3%BC`);
/// a `%` not followed by two hex digits is one of those (`%25`): neither transport can send it
/// bare (both hand Foundation's `URL` a string, and its parser refuses or re-encodes it), and
/// RFC 3986 allows `%` only as the start of an escape. As curl does, the fragment is not sent and
/// `.`/`..` segments of the path are resolved (RFC 3986 §5.2.4; curl's default without
/// `--path-as-is`, and what libcurl under URLSession would do anyway).
enum RequestTarget {
    /// `text`, an absolute `http(s)` URL, as its origin (scheme, host, port; userinfo, path and
    /// query left out) and its request target (``normalized(_:)``); nil unless it is an
    /// `http(s)` URL with a host.
    static func split(_ text: String) -> (baseURL: URL, target: String)? {
        guard let separator = text.range(of: "://") else { return nil }
        let scheme = text[..<separator.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        let rest = text[separator.upperBound...]
        let authorityEnd = rest.utf8.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
        let authority = rest[..<(authorityEnd ?? rest.endIndex)]
        // Foundation parses the authority: IPv6 literals, international host names (IDNA), ports.
        guard let parsed = URLComponents(string: scheme + "://" + authority), let host = parsed.host, !host.isEmpty else { return nil }
        var origin = URLComponents()
        origin.scheme = scheme
        origin.host = host.lowercased()
        origin.port = parsed.port
        guard let baseURL = origin.url else { return nil }
        return (baseURL, normalized(rest[(authorityEnd ?? rest.endIndex)...]))
    }

    /// `given` (a path, optionally with a query and a fragment) as the request line carries it:
    /// the fragment dropped, a leading `/` ensured, dot segments resolved, and what may not
    /// appear in a URL percent-encoded. Applying it twice changes nothing.
    static func normalized(_ given: some StringProtocol) -> String {
        var bytes = Array(given.utf8)
        if let hash = bytes.firstIndex(of: UInt8(ascii: "#")) { bytes.removeSubrange(hash...) }
        let queryStart = bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.endIndex
        var out = removingDotSegments(encoded(bytes[..<queryStart]))
        out += encoded(bytes[queryStart...])
        return String(decoding: out, as: UTF8.self)
    }

    /// A `Location` value (an absolute URL, a network-path or a relative reference) with its
    /// fragment dropped and what may not appear in a URL percent-encoded after the authority;
    /// the authority is left to Foundation (IPv6 literals, international host names).
    static func reference(_ location: String) -> String {
        var bytes = Array(location.utf8)
        if let hash = bytes.firstIndex(of: UInt8(ascii: "#")) { bytes.removeSubrange(hash...) }
        let start = authorityEnd(of: bytes)
        return String(decoding: bytes[..<start] + encoded(bytes[start...]), as: UTF8.self)
    }

    /// Where the scheme and authority of `reference` end (0 for a relative reference).
    private static func authorityEnd(of reference: [UInt8]) -> Int {
        var index = 0
        if let colon = reference.firstIndex(of: UInt8(ascii: ":")),
            reference[..<colon].first.map(isLetter) == true,
            reference[..<colon].allSatisfy({ isLetter($0) || isDigit($0) || "+-.".utf8.contains($0) })
        {
            index = colon + 1
        }
        let slash = UInt8(ascii: "/")
        guard index + 1 < reference.count, reference[index] == slash, reference[index + 1] == slash else { return index }
        let end = reference[(index + 2)...].firstIndex { $0 == slash || $0 == UInt8(ascii: "?") }
        return end ?? reference.count
    }

    /// `bytes` with every byte that may not appear in a URL (RFC 3986: anything but unreserved
    /// characters, sub-delims, `:`, `@`, `/`, `?` and a `%` that starts an escape) as `%XX`.
    static func encoded(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        for index in bytes.indices {
            let byte = bytes[index]
            let escape =
                byte == UInt8(ascii: "%") && index + 2 < bytes.endIndex
                && isHex(bytes[index + 1]) && isHex(bytes[index + 2])
            if escape || (byte != UInt8(ascii: "%") && isAllowed(byte)) {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return out
    }

    /// `path` (encoded, without its query) with `.` and `..` segments resolved as RFC 3986
    /// §5.2.4 says, and a leading `/`; `//` and `%2e` stay (curl leaves them too).
    static func removingDotSegments(_ path: [UInt8]) -> [UInt8] {
        let slash = UInt8(ascii: "/")
        let dot = UInt8(ascii: ".")
        guard path.contains(dot) else { return path.first == slash ? path : [slash] + path }
        var segments = path.split(separator: slash, omittingEmptySubsequences: false)
        if path.first == slash { segments.removeFirst() }
        var kept: [ArraySlice<UInt8>] = []
        for (index, segment) in segments.enumerated() {
            let isLast = index == segments.count - 1
            if segment.elementsEqual([dot]) {
                if isLast { kept.append([]) }
            } else if segment.elementsEqual([dot, dot]) {
                if !kept.isEmpty { kept.removeLast() }
                if isLast { kept.append([]) }
            } else {
                kept.append(segment)
            }
        }
        return [slash] + Array(kept.joined(separator: [slash]))
    }

    private static let hex = Array("0123456789ABCDEF".utf8)

    private static func isAllowed(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || "-._~!$&'()*+,;=:@/?".utf8.contains(byte)
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
    }
}
