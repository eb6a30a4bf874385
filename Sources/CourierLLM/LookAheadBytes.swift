/// Bytes that look-ahead decisions read, and where they end. The decisions the repair rules
/// (``RepairRules``) take on bytes ahead of `pos` (which delimiter is this? does this quote close
/// the string? is this `[` a citation?) are written once, here, for both parsers: on a whole
/// text (``WholeBytes``, `Shortage` is `Never`) `atEnd` answers at once; on a streaming window
/// (``StreamWindow``) it throws when the bytes it would need have not arrived yet, and the
/// decision is taken again later.
protocol LookAheadBytes {
    /// What `atEnd` throws when it cannot answer yet.
    associatedtype Shortage: Error
    var bytes: [UInt8] { get }
    /// The end of the bytes that may be read.
    var end: Int { get }
    /// Whether `index` is past the readable bytes; throws when that is not known yet.
    func atEnd(_ index: Int) throws(Shortage) -> Bool
}

extension LookAheadBytes {
    /// `atEnd(index)`, answered in line while `index` is before `end` (the common case in the
    /// scanning loops below): the requirement is called only at the end of the bytes.
    @inline(__always)
    func isPast(_ index: Int) throws(Shortage) -> Bool {
        if index < end { return false }
        return try atEnd(index)
    }

    /// Whether a curly quote (U+201C/D, U+2018/9) starts at `index` (`ByteClass.isSmartQuote(in:at:end:)`).
    func isSmartQuote(at index: Int) throws(Shortage) -> Bool {
        guard bytes[index] == 0xE2 else { return false }
        if try isPast(index + 2) { return false }
        guard bytes[index + 1] == 0x80 else { return false }
        let last = bytes[index + 2]
        return last == 0x9C || last == 0x9D || last == 0x98 || last == 0x99
    }

    /// The kind of string delimiter that starts at `index`, with its length in bytes.
    @inline(__always)
    func quoteKind(at index: Int) throws(Shortage) -> (QuoteKind, Int)? {
        let byte = bytes[index]
        if byte == ByteClass.quote { return (.double, 1) }
        if byte == ByteClass.apostrophe { return (.single, 1) }
        guard byte == 0xE2 else { return nil }
        if try isPast(index + 2) { return nil }
        guard bytes[index + 1] == 0x80 else { return nil }
        switch bytes[index + 2] {
        case 0x9C, 0x9D: return (.smartDouble, 3)
        case 0x98, 0x99: return (.smartSingle, 3)
        default: return nil
        }
    }

    /// The length of the delimiter at `index` that can close a string opened with `kind`, if one is there.
    @inline(__always)
    func closingLength(_ kind: QuoteKind, at index: Int) throws(Shortage) -> Int? {
        let byte = bytes[index]
        switch kind {
        case .double: return byte == ByteClass.quote ? 1 : nil
        case .single: return byte == ByteClass.apostrophe ? 1 : nil
        case .smartDouble, .smartSingle:
            if byte == (kind == .smartDouble ? ByteClass.quote : ByteClass.apostrophe) { return 1 }
            guard byte == 0xE2 else { return nil }
            if try isPast(index + 2) { return nil }
            guard bytes[index + 1] == 0x80 else { return nil }
            let last = bytes[index + 2]
            if kind == .smartDouble { return last == 0x9D || last == 0x9C ? 3 : nil }
            return last == 0x99 || last == 0x98 ? 3 : nil
        }
    }

    /// Whether a value can begin at `index` (used to detect a missing colon or comma).
    func startsValue(at index: Int) throws(Shortage) -> Bool {
        switch bytes[index] {
        case ByteClass.quote, ByteClass.apostrophe, UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "-"):
            return true
        default:
            if ByteClass.isDigit(bytes[index]) || ByteClass.isASCIILetter(bytes[index]) { return true }
            return try isSmartQuote(at: index)
        }
    }

    /// Whether a `//` or `/*` comment starts at `index`.
    func startsComment(at index: Int) throws(Shortage) -> Bool {
        if try isPast(index + 1) { return false }
        guard bytes[index] == UInt8(ascii: "/") else { return false }
        return bytes[index + 1] == UInt8(ascii: "/") || bytes[index + 1] == UInt8(ascii: "*")
    }

    private func skipSpaces(from index: Int) throws(Shortage) -> Int {
        var cursor = index
        while cursor < index + 256, !(try isPast(cursor)), ByteClass.isSpace(bytes[cursor]) { cursor += 1 }
        return cursor
    }

    /// Decides whether a delimiter ending at `index` closes the string in `context`.
    func isClosing(after index: Int, _ context: RepairRules.Context) throws(Shortage) -> Bool {
        var cursor = index
        var sawNewline = false
        while cursor < index + 256, !(try isPast(cursor)), ByteClass.isSpace(bytes[cursor]) {
            if bytes[cursor] == ByteClass.newline { sawNewline = true }
            cursor += 1
        }
        if cursor >= index + 256 { return true }
        if try isPast(cursor) { return true }
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
            default:
                // A delimiter at the end of a line closes the string (a missing comma, or an
                // object left open before trailing prose).
                return sawNewline
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

    /// Whether an object member (or the end of the object) can start at `index`.
    private func startsMember(at index: Int) throws(Shortage) -> Bool {
        let cursor = try skipSpaces(from: index)
        if try isPast(cursor) { return true }
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

    /// Whether an array element (or the end of the array) can start at `index`.
    private func startsElement(at index: Int) throws(Shortage) -> Bool {
        let cursor = try skipSpaces(from: index)
        if try isPast(cursor) { return true }
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

    /// Whether an unquoted key followed by `:` starts at `index`.
    func looksLikeKey(at index: Int) throws(Shortage) -> Bool {
        var cursor = index
        while cursor < index + 64, !(try isPast(cursor)), ByteClass.isWordByte(bytes[cursor]), !(try isSmartQuote(at: cursor)) {
            cursor += 1
        }
        guard cursor > index else { return false }
        cursor = try skipSpaces(from: cursor)
        return !(try isPast(cursor)) && bytes[cursor] == UInt8(ascii: ":")
    }

    /// Whether a known literal word (`TolerantParser.literals`) starts at `index` and ends there.
    private func literalWord(at index: Int) throws(Shortage) -> Bool {
        var cursor = index
        while !(try isPast(cursor)), ByteClass.isASCIILetter(bytes[cursor]), cursor - index < 16 { cursor += 1 }
        guard cursor > index else { return false }
        if !(try isPast(cursor)), ByteClass.isWordByte(bytes[cursor]) { return false }
        return TolerantParser.literals[String(decoding: bytes[index..<cursor], as: UTF8.self)] != nil
    }

    /// The end of a citation marker starting at `start`: `[text](url)`, `【…】`, or (unless
    /// `requireLink`) a short bracketed note such as `[1]` or `[출처]`.
    func citationEnd(from start: Int, requireLink: Bool) throws(Shortage) -> Int? {
        if bytes[start] == 0xE3 {
            if try isPast(start + 2) { return nil }
            guard bytes[start + 1] == 0x80, bytes[start + 2] == 0x90 else { return nil }
            var cursor = start + 3
            while !(try isPast(cursor + 2)), cursor - start < 200 {
                if bytes[cursor] == ByteClass.newline { return nil }
                if bytes[cursor] == 0xE3, bytes[cursor + 1] == 0x80, bytes[cursor + 2] == 0x91 { return cursor + 3 }
                cursor += 1
            }
            return nil
        }
        guard let close = try bracketEnd(from: start) else { return nil }
        if !(try isPast(close + 1)), bytes[close + 1] == UInt8(ascii: "("), let linkEnd = try linkEnd(from: close + 1) { return linkEnd }
        if requireLink || close - start > 40 { return nil }
        for index in (start + 1)..<close where bytes[index] == UInt8(ascii: ",") {
            return nil
        }
        return close + 1
    }

    /// A Markdown link `[text](url)` used as a value, at `start`: its URL and the index after it.
    func markdownLink(at start: Int) throws(Shortage) -> (url: String, end: Int)? {
        guard let close = try bracketEnd(from: start), close > start + 1 else { return nil }
        if try isPast(close + 1) { return nil }
        guard bytes[close + 1] == UInt8(ascii: "("), let after = try linkEnd(from: close + 1) else { return nil }
        return (String(decoding: bytes[(close + 2)..<(after - 1)], as: UTF8.self), after)
    }

    /// The index of the `]` matching the `[` at `start` on the same line, honouring `\` escapes.
    func bracketEnd(from start: Int) throws(Shortage) -> Int? {
        var depth = 0
        var cursor = start
        while !(try isPast(cursor)), cursor - start < 300 {
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

    /// The index after the `)` closing a link target that starts with `(` at `start`.
    func linkEnd(from start: Int) throws(Shortage) -> Int? {
        var cursor = start + 1
        while !(try isPast(cursor)), cursor - start < 2048 {
            let byte = bytes[cursor]
            if byte == UInt8(ascii: ")") { return cursor > start + 1 ? cursor + 1 : nil }
            if byte <= 0x20 || byte == ByteClass.quote { return nil }
            cursor += 1
        }
        return nil
    }

    /// The end of a short parenthesised note such as `(출처: 연합뉴스)` on one line.
    func parenthesisEnd(from start: Int) throws(Shortage) -> Int? {
        var cursor = start + 1
        while !(try isPast(cursor)), cursor - start < 200 {
            switch bytes[cursor] {
            case UInt8(ascii: ")"): return cursor + 1
            case ByteClass.newline, ByteClass.quote, UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]"):
                return nil
            default: cursor += 1
            }
        }
        return nil
    }
}
