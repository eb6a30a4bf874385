import Courier
import CourierTransportCore
public import HTTPTypes

/// The directives of `Cache-Control` field lines (RFC 9111 §5.2), parsed once.
///
/// Names are case-insensitive; a value may be a token or a quoted string. When a directive
/// appears more than once the first occurrence counts (RFC 9111 §4.2.1).
///
/// ```swift
/// let directives = CacheControl(response.headerFields)
/// directives.maxAge          // 60 for "public, max-age=60"
/// ```
public struct CacheControl: Sendable, Equatable {
    /// Directive names (lowercased) with their value (nil when the directive has none).
    public private(set) var directives: [String: String?] = [:]

    /// The directives of every `Cache-Control` line in `fields`; a request without any also
    /// honours `Pragma: no-cache` (RFC 9111 §5.4).
    public init(_ fields: HTTPFields) {
        self.init(fields[values: .cacheControl])
        if fields[.cacheControl] == nil,
            let pragma = HTTPField.Name("Pragma"), fields[values: pragma].contains(where: { $0.lowercased().contains("no-cache") })
        {
            directives["no-cache"] = .some(nil)
        }
    }

    /// The directives of the given field values.
    public init(_ values: [String]) {
        for value in values {
            for part in Self.split(value) {
                let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = Self.trimmed(pieces[0]).lowercased()
                guard !name.isEmpty, directives[name] == nil else { continue }
                var argument: String?
                if pieces.count > 1 {
                    var text = String(Self.trimmed(pieces[1]))
                    if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") { text = String(text.dropFirst().dropLast()) }
                    argument = text
                }
                directives[name] = .some(argument)
            }
        }
    }

    /// Whether `name` is present (with or without a value).
    public func has(_ name: String) -> Bool { directives[name] != nil }

    /// The value of `name` as delta-seconds: nil when absent, `invalid` when present but not a
    /// non-negative integer. Huge values are capped at 2³¹ seconds (RFC 9111 §1.2.2).
    public func seconds(_ name: String, invalid: Double? = nil) -> Double? {
        guard let entry = directives[name] else { return nil }
        guard let text = entry, !text.isEmpty, text.allSatisfy(\.isASCIIDigitCharacter) else { return invalid }
        return WireNumber.deltaSeconds(text).map(Double.init) ?? invalid
    }

    /// `max-age`: an invalid value makes the response stale (0).
    public var maxAge: Double? { seconds("max-age", invalid: 0) }
    /// `no-store`.
    public var noStore: Bool { has("no-store") }
    /// `no-cache` (with or without field names: both make a private cache validate).
    public var noCache: Bool { has("no-cache") }
    /// `must-revalidate` (or `proxy-revalidate`, which a private cache may treat alike).
    public var mustRevalidate: Bool { has("must-revalidate") }
    /// `public`.
    public var isPublic: Bool { has("public") }
    /// `private`.
    public var isPrivate: Bool { has("private") }
    /// `only-if-cached`.
    public var onlyIfCached: Bool { has("only-if-cached") }
    /// `immutable` (RFC 8246).
    public var immutable: Bool { has("immutable") }
    /// `min-fresh`.
    public var minFresh: Double? { seconds("min-fresh") }
    /// `max-stale`: `.infinity` when present without a value.
    public var maxStale: Double? {
        guard let entry = directives["max-stale"] else { return nil }
        return entry == nil ? .infinity : seconds("max-stale")
    }
    /// `stale-while-revalidate` (RFC 5861).
    public var staleWhileRevalidate: Double? { seconds("stale-while-revalidate") }
    /// `stale-if-error` (RFC 5861).
    public var staleIfError: Double? { seconds("stale-if-error") }

    /// `text` without leading and trailing optional whitespace (RFC 9110 §5.6.3: spaces and tabs).
    static func trimmed(_ text: Substring) -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) }) else { return "" }
        return text[first...last]
    }

    /// Splits at commas outside quoted strings.
    private static func split(_ value: String) -> [Substring] {
        var parts: [Substring] = []
        var start = value.startIndex
        var quoted = false
        var index = value.startIndex
        while index < value.endIndex {
            let character = value[index]
            if character == "\"" { quoted.toggle() }
            if character == ",", !quoted {
                parts.append(value[start..<index])
                start = value.index(after: index)
            }
            index = value.index(after: index)
        }
        parts.append(value[start...])
        return parts
    }
}
