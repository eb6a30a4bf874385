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
}
