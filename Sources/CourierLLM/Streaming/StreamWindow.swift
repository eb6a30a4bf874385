import Foundation

/// Thrown by a look-ahead that needs bytes which have not arrived yet.
struct NeedMore: Error {}

/// The bytes of a region received so far, for look-ahead decisions that must come out exactly
/// as ``TolerantParser`` decides them on the whole text: the decisions themselves are shared
/// (``LookAheadBytes``); here, before the region's end is known, a test that reaches the bytes
/// received so far throws ``NeedMore`` instead of answering, so a decision is taken only once
/// the bytes it reads are all there.
struct StreamWindow: LookAheadBytes {
    let bytes: [UInt8]
    /// The end of the bytes that may be read (received and inside the region).
    let end: Int
    /// Whether `end` is the region's true end (the text or the fence is complete).
    let isFinal: Bool

    /// Whether `index` is past the readable bytes; throws when the answer is not known yet.
    @inline(__always)
    func atEnd(_ index: Int) throws(NeedMore) -> Bool {
        if index < end { return false }
        if isFinal { return true }
        throw NeedMore()
    }

    /// Mirrors `ByteClass.quoteKind(in:at:end:)`.
    func quoteKind(at index: Int) throws(NeedMore) -> (QuoteKind, Int)? {
        let byte = bytes[index]
        if byte == ByteClass.quote { return (.double, 1) }
        if byte == ByteClass.apostrophe { return (.single, 1) }
        guard byte == 0xE2 else { return nil }
        if try atEnd(index + 2) { return nil }
        return ByteClass.quoteKind(in: bytes, at: index, end: end)
    }

    /// Mirrors `QuoteKind.closingLength(in:at:end:)`.
    func closingLength(_ kind: QuoteKind, at index: Int) throws(NeedMore) -> Int? {
        if bytes[index] == 0xE2, kind == .smartDouble || kind == .smartSingle, try atEnd(index + 2) { return nil }
        return kind.closingLength(in: bytes, at: index, end: end)
    }

    /// Mirrors `TolerantParser.markdownLink()`: the link's URL and the index after it.
    func markdownLink(at pos: Int) throws(NeedMore) -> (String, Int)? {
        guard let close = try bracketEnd(from: pos), close > pos + 1 else { return nil }
        if try atEnd(close + 1) { return nil }
        guard bytes[close + 1] == UInt8(ascii: "("), let after = try linkEnd(from: close + 1) else { return nil }
        return (String(decoding: bytes[(close + 2)..<(after - 1)], as: UTF8.self), after)
    }

    /// The first index at or after `start` whose byte is not in `member`; throws when every
    /// byte received so far is (the token may go on).
    func runEnd(from start: Int, while member: (UInt8) -> Bool) throws(NeedMore) -> Int {
        var cursor = start
        while !(try atEnd(cursor)), member(bytes[cursor]) { cursor += 1 }
        return cursor
    }
}
