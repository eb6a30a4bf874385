/// What a `Range` request field asks of a representation of `size` bytes (RFC 9110 §14.1–14.2),
/// for a server that honours a single range only.
enum ByteRangeRequest: Equatable, Sendable {
    /// One satisfiable range: answer `206` with these bytes.
    case partial(Range<Int64>)
    /// One well-formed range that selects nothing (`first-pos >= size`, or `-0`): answer `416`.
    case unsatisfiable
    /// Malformed, another unit, several ranges, or nothing to select in an empty file: the field
    /// is ignored and the whole representation sent (`200`).
    case ignored

    /// `field` (`bytes=a-b`, `bytes=a-` or `bytes=-n`) against `size` bytes. The unit is
    /// case-insensitive; whitespace around the range is allowed, inside it not; a last position
    /// past the end is clamped, a number too long for 64 bits is as large as can be.
    init(field: String, size: Int64) {
        let unit = "bytes="
        guard field.count > unit.count, field.prefix(unit.count).lowercased() == unit else {
            self = .ignored
            return
        }
        let specs = field.dropFirst(unit.count).split(separator: ",", omittingEmptySubsequences: false)
            .map(Self.trimmingSpacesAndTabs).filter { !$0.isEmpty }
        guard specs.count == 1, let spec = specs.first, let dash = spec.firstIndex(of: "-") else {
            self = .ignored
            return
        }
        let first = spec[..<dash]
        let last = spec[spec.index(after: dash)...]
        switch (Self.position(first), Self.position(last)) {
        case (nil, let suffix?) where first.isEmpty:
            // `-n`: the last n bytes; `-0` selects nothing, an empty file has nothing to send.
            if suffix == 0 {
                self = .unsatisfiable
            } else if size == 0 {
                self = .ignored
            } else {
                self = .partial(max(0, size - suffix)..<size)
            }
        case (let start?, nil) where last.isEmpty:
            self = start < size ? .partial(start..<size) : .unsatisfiable
        case (let start?, let end?) where start <= end:
            self = start < size ? .partial(start..<(min(end, size - 1) + 1)) : .unsatisfiable
        default:
            self = .ignored
        }
    }

    /// A byte position: one or more ASCII digits (nil otherwise); past `Int64.max` it is `Int64.max`.
    private static func position(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        return Int64(text) ?? .max
    }

    /// `text` without leading and trailing spaces and tabs (HTTP's OWS).
    private static func trimmingSpacesAndTabs(_ text: Substring) -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = text.firstIndex(where: { !isSpace($0) }), let end = text.lastIndex(where: { !isSpace($0) }) else { return "" }
        return text[start...end]
    }
}
