import Foundation

/// Thrown by a look-ahead that needs bytes which have not arrived yet.
struct NeedMore: Error {}

/// The bytes of a region received so far, for look-ahead decisions that must come out exactly
/// as ``TolerantParser`` decides them on the whole text.
///
/// Each function mirrors the ``TolerantParser`` function of the same name line by line, with
/// every `index < end` test replaced by ``atEnd(_:)``: before the region's end is known, a test
/// that reaches the bytes received so far throws ``NeedMore`` instead of answering, so a decision
/// is taken only once the bytes it reads are all there.
struct StreamWindow {
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

    /// Mirrors `ByteClass.isSmartQuote(in:at:end:)`.
    func isSmartQuote(at index: Int) throws(NeedMore) -> Bool {
        guard bytes[index] == 0xE2 else { return false }
        if try atEnd(index + 2) { return false }
        guard bytes[index + 1] == 0x80 else { return false }
        let last = bytes[index + 2]
        return last == 0x9C || last == 0x9D || last == 0x98 || last == 0x99
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

    /// Mirrors `TolerantParser.startsComment(at:)`.
    func startsComment(at index: Int) throws(NeedMore) -> Bool {
        if try atEnd(index + 1) { return false }
        guard bytes[index] == UInt8(ascii: "/") else { return false }
        return bytes[index + 1] == UInt8(ascii: "/") || bytes[index + 1] == UInt8(ascii: "*")
    }

    private func skipSpaces(from index: Int) throws(NeedMore) -> Int {
        var cursor = index
        while cursor < index + 256, !(try atEnd(cursor)), ByteClass.isSpace(bytes[cursor]) { cursor += 1 }
        return cursor
    }

    /// Mirrors `TolerantParser.isClosing(after:_:)`.
    func isClosing(after index: Int, _ context: TolerantParser.Context) throws(NeedMore) -> Bool {
        var cursor = index
        var sawNewline = false
        while cursor < index + 256, !(try atEnd(cursor)), ByteClass.isSpace(bytes[cursor]) {
            if bytes[cursor] == ByteClass.newline { sawNewline = true }
            cursor += 1
        }
        if cursor >= index + 256 { return true }
        if try atEnd(cursor) { return true }
        let next = bytes[cursor]
        switch context {
        case .topLevel:
            return true
        case .objectKey:
            return next == UInt8(ascii: ":") || !(ByteClass.isASCIILetter(next) || next >= 0x80 || next == UInt8(ascii: "_"))
        case .objectValue:
            switch next {
            case UInt8(ascii: ","): return try startsMember(at: cursor + 1)
            case UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: "*"): return true
            case UInt8(ascii: "/"): return try startsComment(at: cursor)
            case UInt8(ascii: "["):
                if sawNewline { return true }
                return try citationEnd(from: cursor, requireLink: false) != nil
            case UInt8(ascii: "("): return try parenthesisEnd(from: cursor) != nil
            case 0xE3: return try citationEnd(from: cursor, requireLink: false) != nil
            default: return sawNewline
            }
        case .arrayElement:
            switch next {
            case UInt8(ascii: ","): return try startsElement(at: cursor + 1)
            case UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: "*"): return true
            case UInt8(ascii: "/"): return try startsComment(at: cursor)
            default: return sawNewline
            }
        }
    }

    private func startsMember(at index: Int) throws(NeedMore) -> Bool {
        let cursor = try skipSpaces(from: index)
        if try atEnd(cursor) { return true }
        switch bytes[cursor] {
        case ByteClass.quote, ByteClass.apostrophe, UInt8(ascii: "}"), UInt8(ascii: "{"), UInt8(ascii: ","),
            UInt8(ascii: "]"), UInt8(ascii: "*"):
            return true
        case UInt8(ascii: "/"):
            return try startsComment(at: cursor)
        default:
            if try isSmartQuote(at: cursor) { return true }
            return try looksLikeKey(at: cursor)
        }
    }

    private func startsElement(at index: Int) throws(NeedMore) -> Bool {
        let cursor = try skipSpaces(from: index)
        if try atEnd(cursor) { return true }
        let byte = bytes[cursor]
        switch byte {
        case ByteClass.quote, ByteClass.apostrophe, UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "]"),
            UInt8(ascii: ","), UInt8(ascii: "-"):
            return true
        case UInt8(ascii: "/"):
            return try startsComment(at: cursor)
        default:
            if ByteClass.isDigit(byte) { return true }
            if try isSmartQuote(at: cursor) { return true }
            return try literalWord(at: cursor)
        }
    }

    private func looksLikeKey(at index: Int) throws(NeedMore) -> Bool {
        var cursor = index
        while cursor < index + 64, !(try atEnd(cursor)), ByteClass.isWordByte(bytes[cursor]), !(try isSmartQuote(at: cursor)) {
            cursor += 1
        }
        guard cursor > index else { return false }
        cursor = try skipSpaces(from: cursor)
        return !(try atEnd(cursor)) && bytes[cursor] == UInt8(ascii: ":")
    }

    /// Whether a known literal word ends at `index` (mirrors `literalWord(at:) != nil`).
    private func literalWord(at index: Int) throws(NeedMore) -> Bool {
        var cursor = index
        while !(try atEnd(cursor)), ByteClass.isASCIILetter(bytes[cursor]), cursor - index < 16 { cursor += 1 }
        guard cursor > index else { return false }
        if !(try atEnd(cursor)), ByteClass.isWordByte(bytes[cursor]) { return false }
        return TolerantParser.literals[String(decoding: bytes[index..<cursor], as: UTF8.self)] != nil
    }

    /// Mirrors `TolerantParser.citationEnd(from:requireLink:)`.
    func citationEnd(from start: Int, requireLink: Bool) throws(NeedMore) -> Int? {
        if bytes[start] == 0xE3 {
            if try atEnd(start + 2) { return nil }
            guard bytes[start + 1] == 0x80, bytes[start + 2] == 0x90 else { return nil }
            var cursor = start + 3
            while !(try atEnd(cursor + 2)), cursor - start < 200 {
                if bytes[cursor] == ByteClass.newline { return nil }
                if bytes[cursor] == 0xE3, bytes[cursor + 1] == 0x80, bytes[cursor + 2] == 0x91 { return cursor + 3 }
                cursor += 1
            }
            return nil
        }
        guard let close = try bracketEnd(from: start) else { return nil }
        if !(try atEnd(close + 1)), bytes[close + 1] == UInt8(ascii: "("), let linkEnd = try linkEnd(from: close + 1) { return linkEnd }
        if requireLink || close - start > 40 { return nil }
        for index in (start + 1)..<close where bytes[index] == UInt8(ascii: ",") {
            return nil
        }
        return close + 1
    }

    /// Mirrors `TolerantParser.bracketEnd(from:)`.
    func bracketEnd(from start: Int) throws(NeedMore) -> Int? {
        var depth = 0
        var cursor = start
        while !(try atEnd(cursor)), cursor - start < 300 {
            let byte = bytes[cursor]
            switch byte {
            case ByteClass.backslash:
                cursor += 2
                continue
            case ByteClass.newline, ByteClass.quote, UInt8(ascii: "{"), UInt8(ascii: "}"): return nil
            case UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { return cursor }
            default: break
            }
            cursor += 1
        }
        return nil
    }

    /// Mirrors `TolerantParser.linkEnd(from:)`.
    func linkEnd(from start: Int) throws(NeedMore) -> Int? {
        var cursor = start + 1
        while !(try atEnd(cursor)), cursor - start < 2048 {
            let byte = bytes[cursor]
            if byte == UInt8(ascii: ")") { return cursor > start + 1 ? cursor + 1 : nil }
            if byte <= 0x20 || byte == ByteClass.quote { return nil }
            cursor += 1
        }
        return nil
    }

    /// Mirrors `TolerantParser.parenthesisEnd(from:)`.
    func parenthesisEnd(from start: Int) throws(NeedMore) -> Int? {
        var cursor = start + 1
        while !(try atEnd(cursor)), cursor - start < 200 {
            switch bytes[cursor] {
            case UInt8(ascii: ")"): return cursor + 1
            case ByteClass.newline, ByteClass.quote, UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]"):
                return nil
            default: cursor += 1
            }
        }
        return nil
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
