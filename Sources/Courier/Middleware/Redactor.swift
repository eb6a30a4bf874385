import Foundation
public import HTTPTypes

/// Removes secrets from text that is about to be logged or shown.
///
/// It hides: header values of `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie`
/// and API-key headers; query values whose names look like credentials (`client_id`, `api_key`,
/// `serviceKey`, `access_token`, `password` …) and `user:password@` in URLs — in header values
/// that carry URLs (`Location`, `Referer`, `Content-Location`) too; and any value named as a
/// secret (``Endpoint/secrets``), wherever it appears — an API key in a path segment included.
public struct Redactor: Sendable {
    /// The replacement text.
    public static let mask = "<redacted>"

    /// Header names whose values are never shown (lowercase).
    public var sensitiveHeaders: Set<String>
    /// Query item names whose values are never shown (lowercase).
    public var sensitiveQueryNames: Set<String>
    /// Literal values never shown.
    public var secrets: [String]

    /// A redactor with the standard names plus `secrets`.
    public init(secrets: [String] = [], extraHeaders: Set<String> = [], extraQueryNames: Set<String> = []) {
        self.sensitiveHeaders = Self.defaultHeaders.union(extraHeaders.map { $0.lowercased() })
        self.sensitiveQueryNames = Self.defaultQueryNames.union(extraQueryNames.map { $0.lowercased() })
        self.secrets = secrets.filter { $0.count >= 3 }
    }

    /// Standard credential headers.
    public static let defaultHeaders: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key", "x-auth-token",
    ]
    /// Standard credential query names.
    public static let defaultQueryNames: Set<String> = [
        "client_id", "client_secret", "api_key", "apikey", "api-key", "key", "token", "access_token", "refresh_token",
        "id_token", "password", "passwd", "secret", "signature", "sig", "auth", "servicekey", "service_key", "session",
    ]
    /// Header names whose values are URLs: shown with their credentials masked.
    public static let urlHeaders: Set<String> = ["location", "referer", "content-location"]

    /// `value` of header `name`, or the mask.
    public func header(_ name: String, _ value: String) -> String {
        let lowercased = name.lowercased()
        if sensitiveHeaders.contains(lowercased) { return Self.mask }
        return Self.urlHeaders.contains(lowercased) ? url(value) : text(value)
    }

    /// A URL or path with credential query values and secrets masked.
    public func url(_ url: String) -> String {
        var result = Self.maskingUserInfo(text(url))
        guard let offset = Self.bytes(of: result, { $0.firstIndex(of: UInt8(ascii: "?")) }) else { return result }
        let questionMark = result.utf8.index(result.utf8.startIndex, offsetBy: offset)
        let head = result[..<questionMark]
        let query = result[result.index(after: questionMark)...]
        let items = query.split(separator: "&", omittingEmptySubsequences: false).map { item -> String in
            guard let equals = item.firstIndex(of: "=") else { return String(item) }
            let name = String(item[..<equals])
            let decoded = name.removingPercentEncoding ?? name
            return sensitiveQueryNames.contains(decoded.lowercased()) ? name + "=" + Self.mask : String(item)
        }
        result = head + "?" + items.joined(separator: "&")
        return result
    }

    /// `url` with the password of a `user:password@` authority masked (the user too: it names an account).
    static func maskingUserInfo(_ url: String) -> String {
        let found = bytes(of: url) { bytes -> (start: Int, at: Int)? in
            guard let start = authorityStart(bytes) else { return nil }
            guard let at = bytes[start..<authorityEnd(bytes, from: start)].lastIndex(of: UInt8(ascii: "@")) else { return nil }
            return (start, at)
        }
        guard let found else { return url }
        let utf8 = url.utf8
        return String(url[..<utf8.index(utf8.startIndex, offsetBy: found.start)]) + mask
            + String(url[utf8.index(utf8.startIndex, offsetBy: found.at)...])
    }

    /// Where the authority of `url` that begins at `start` ends: its first `/`, `?` or `#`, or the end.
    package static func authorityEnd(_ url: String, from start: String.Index) -> String.Index {
        let from = url.utf8.distance(from: url.utf8.startIndex, to: start)
        return url.utf8.index(url.utf8.startIndex, offsetBy: bytes(of: url) { authorityEnd($0, from: from) })
    }

    /// Where the authority of `url` begins: just past its first `://`. URLs are scanned as bytes
    /// here: Foundation's `range(of:)` and comparisons of `Character`s cost more than the rest of a
    /// call's recording (callgrind: 30,000 instructions per call for two redactions).
    package static func authorityStart(_ url: String) -> String.Index? {
        bytes(of: url) { authorityStart($0) }.map { url.utf8.index(url.utf8.startIndex, offsetBy: $0) }
    }

    /// The offset just past the first `://` of `url`'s bytes.
    private static func authorityStart(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var matched = 0
        for index in bytes.indices {
            let byte = bytes[index]
            if byte == UInt8(ascii: ":") {
                matched = 1
            } else if byte == UInt8(ascii: "/"), matched > 0 {
                matched += 1
                if matched == 3 { return index + 1 }
            } else {
                matched = 0
            }
        }
        return nil
    }

    /// The offset of the first `/`, `?` or `#` of `url`'s bytes from `start`, or their count.
    private static func authorityEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        bytes[start...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.endIndex
    }

    /// `read` of `text`'s UTF-8 as contiguous bytes: loops over them cost a quarter of stepping
    /// `String.UTF8View`'s indices (callgrind: 2,600 instructions a redaction of a plain URL, 700
    /// so). Offsets found in them are those of ASCII bytes, turned back into indices of `text`.
    private static func bytes<R>(of text: String, _ read: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let result = text.utf8.withContiguousStorageIfAvailable(read) { return result }
        return Array(text.utf8).withUnsafeBufferPointer(read)
    }

    /// `text` with every named secret (raw or percent-encoded) masked.
    public func text(_ text: String) -> String {
        var result = text
        for secret in secrets {
            result = result.replacingOccurrences(of: secret, with: Self.mask)
            let encoded = PercentEncoding.encode(secret)
            if encoded != secret { result = result.replacingOccurrences(of: encoded, with: Self.mask) }
        }
        return result
    }

    /// A one-line `name: value; …` rendering of header fields with secrets masked.
    public func headers(_ fields: HTTPFields) -> String {
        fields.map { "\($0.name.rawName): \(header($0.name.rawName, $0.value))" }.joined(separator: "; ")
    }
}
