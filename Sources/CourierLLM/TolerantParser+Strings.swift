import Foundation

extension TolerantParser {
    /// Parses a string delimited by `"`, `'` or typographic quotes. A delimiter that is not
    /// followed by what the context allows (a colon after a key, a comma or closing bracket
    /// after a value) is kept as an inner quote. Contents of valid strings are never changed.
    mutating func parseString(_ context: Context) -> Parsed? {
        guard let (kind, openLength) = ByteClass.quoteKind(in: bytes, at: pos, end: end) else { return nil }
        if kind != .double { note(.convertedQuotes) }
        pos += openLength
        scratch.removeAll(keepingCapacity: true)
        while pos < end {
            let runStart = pos
            while pos < end, kind.isPlain(bytes[pos]) { pos += 1 }
            if pos > runStart { scratch.append(contentsOf: bytes[runStart..<pos]) }
            guard pos < end else { break }
            let byte = bytes[pos]
            if byte == ByteClass.backslash {
                guard pos + 1 < end else {
                    pos = end
                    break
                }
                appendEscape(kind)
                continue
            }
            if let closeLength = kind.closingLength(in: bytes, at: pos, end: end) {
                if isClosing(after: pos + closeLength, context) {
                    pos += closeLength
                    return .value(.string(String(decoding: scratch, as: UTF8.self)))
                }
                note(.escapedInnerQuote)
                scratch.append(contentsOf: bytes[pos..<(pos + closeLength)])
                pos += closeLength
                continue
            }
            if byte < 0x20 { note(.escapedControlCharacter) }
            scratch.append(byte)
            pos += 1
        }
        noteTruncated()
        if context == .objectKey { return .missing }
        return .value(.string(String(decoding: scratch, as: UTF8.self)))
    }

    /// The control character of `\n`, `\t`, `\r`, `\b` and `\f`, by the escape's letter.
    private static let controlEscapes: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 128)
        for (letter, control) in [("n", 0x0A), ("t", 0x09), ("r", 0x0D), ("b", 0x08), ("f", 0x0C)] as [(Character, UInt8)] {
            table[Int(letter.asciiValue!)] = control
        }
        return table
    }()

    /// Appends the character of the escape sequence at `pos` (a backslash) and advances.
    mutating func appendEscape(_ kind: QuoteKind) {
        let escaped = bytes[pos + 1]
        switch escaped {
        case ByteClass.quote, ByteClass.backslash, UInt8(ascii: "/"):
            scratch.append(escaped)
            pos += 2
        case UInt8(ascii: "n"), UInt8(ascii: "t"), UInt8(ascii: "r"), UInt8(ascii: "b"), UInt8(ascii: "f"):
            scratch.append(Self.controlEscapes[Int(escaped)])
            pos += 2
        case ByteClass.apostrophe:
            if kind == .double { note(.fixedInvalidEscape) }
            scratch.append(escaped)
            pos += 2
        case UInt8(ascii: "x"), UInt8(ascii: "U"):
            // Python's `repr`: `\xNN` for U+0000–U+00FF it does not print (C0, DEL, C1, NBSP),
            // `\UXXXXXXXX` beyond U+FFFF. Not JSON, so noted as a repaired escape.
            let digits = escaped == UInt8(ascii: "x") ? 2 : 8
            note(.fixedInvalidEscape)
            if let value = hexValue(at: pos + 2, digits: digits), let scalar = Unicode.Scalar(value) {
                scratch.append(contentsOf: scalar.utf8)
                pos += 2 + digits
            } else {
                scratch.append(ByteClass.backslash)
                pos += 1
            }
        case UInt8(ascii: "u"):
            if let scalar = unicodeEscape() {
                scratch.append(contentsOf: scalar.utf8)
            } else {
                note(.fixedInvalidEscape)
                scratch.append(ByteClass.backslash)
                pos += 1
            }
        default:
            note(.fixedInvalidEscape)
            scratch.append(ByteClass.backslash)
            pos += 1
        }
    }

    /// The value of the `digits` hexadecimal digits at `index`, or nil.
    private func hexValue(at index: Int, digits: Int = 4) -> UInt32? {
        guard index + digits <= end else { return nil }
        var value: UInt32 = 0
        for offset in 0..<digits {
            let byte = bytes[index + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - 0x30
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - 0x57
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - 0x37
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// Decodes `\uXXXX` (with a following low surrogate when needed) at `pos` and advances.
    private mutating func unicodeEscape() -> Unicode.Scalar? {
        guard let high = hexValue(at: pos + 2) else { return nil }
        if (0xD800...0xDBFF).contains(high) {
            if pos + 7 < end, bytes[pos + 6] == ByteClass.backslash, bytes[pos + 7] == UInt8(ascii: "u"),
                let low = hexValue(at: pos + 8), (0xDC00...0xDFFF).contains(low)
            {
                pos += 12
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
            }
            pos += 6
            return Unicode.Scalar(0xFFFD)
        }
        pos += 6
        return Unicode.Scalar(high) ?? Unicode.Scalar(0xFFFD)
    }

    /// Decides whether a delimiter ending at `index` closes the string in `context`.
    func isClosing(after index: Int, _ context: Context) -> Bool {
        var cursor = index
        var sawNewline = false
        let limit = min(end, index + 256)
        while cursor < limit, ByteClass.isSpace(bytes[cursor]) {
            if bytes[cursor] == ByteClass.newline { sawNewline = true }
            cursor += 1
        }
        guard cursor < limit else { return true }
        let next = bytes[cursor]
        switch context {
        case .topLevel:
            return true
        case .objectKey:
            return next == UInt8(ascii: ":") || !(ByteClass.isASCIILetter(next) || next >= 0x80 || next == UInt8(ascii: "_"))
        case .objectValue:
            switch next {
            case UInt8(ascii: ","): return startsMember(at: cursor + 1)
            case UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: "*"): return true
            case UInt8(ascii: "/"): return startsComment(at: cursor)
            case UInt8(ascii: "["): return sawNewline || citationEnd(from: cursor, requireLink: false) != nil
            case UInt8(ascii: "("): return parenthesisEnd(from: cursor) != nil
            case 0xE3: return citationEnd(from: cursor, requireLink: false) != nil
            default:
                // A delimiter at the end of a line closes the string (a missing comma, or an
                // object left open before trailing prose).
                return sawNewline
            }
        case .arrayElement:
            switch next {
            case UInt8(ascii: ","): return startsElement(at: cursor + 1)
            case UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: "*"): return true
            case UInt8(ascii: "/"): return startsComment(at: cursor)
            default:
                return sawNewline
            }
        }
    }

    private func skipSpaces(from index: Int) -> Int {
        var cursor = index
        let limit = min(end, index + 256)
        while cursor < limit, ByteClass.isSpace(bytes[cursor]) { cursor += 1 }
        return cursor
    }

    func startsComment(at index: Int) -> Bool {
        guard index + 1 < end, bytes[index] == UInt8(ascii: "/") else { return false }
        return bytes[index + 1] == UInt8(ascii: "/") || bytes[index + 1] == UInt8(ascii: "*")
    }

    /// Whether an object member (or the end of the object) can start at `index`.
    private func startsMember(at index: Int) -> Bool {
        let cursor = skipSpaces(from: index)
        guard cursor < end else { return true }
        switch bytes[cursor] {
        case ByteClass.quote, ByteClass.apostrophe, UInt8(ascii: "}"), UInt8(ascii: "{"), UInt8(ascii: ","),
            UInt8(ascii: "]"), UInt8(ascii: "*"):
            return true
        case UInt8(ascii: "/"):
            return startsComment(at: cursor)
        default:
            return ByteClass.isSmartQuote(in: bytes, at: cursor, end: end) || looksLikeKey(at: cursor)
        }
    }

    /// Whether an array element (or the end of the array) can start at `index`.
    private func startsElement(at index: Int) -> Bool {
        let cursor = skipSpaces(from: index)
        guard cursor < end else { return true }
        let byte = bytes[cursor]
        switch byte {
        case ByteClass.quote, ByteClass.apostrophe, UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "]"),
            UInt8(ascii: ","), UInt8(ascii: "-"):
            return true
        case UInt8(ascii: "/"):
            return startsComment(at: cursor)
        default:
            if ByteClass.isDigit(byte) || ByteClass.isSmartQuote(in: bytes, at: cursor, end: end) { return true }
            return literalWord(at: cursor) != nil
        }
    }

    /// Whether an unquoted key followed by `:` starts at `index`.
    func looksLikeKey(at index: Int) -> Bool {
        var cursor = index
        let limit = min(end, index + 64)
        while cursor < limit, ByteClass.isWordByte(bytes[cursor]), !ByteClass.isSmartQuote(in: bytes, at: cursor, end: end) {
            cursor += 1
        }
        guard cursor > index else { return false }
        cursor = skipSpaces(from: cursor)
        return cursor < end && bytes[cursor] == UInt8(ascii: ":")
    }
}
