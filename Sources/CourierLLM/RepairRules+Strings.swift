/// Where the decoded bytes of a string go: ``TolerantParser``'s scratch buffer, or for
/// ``StreamingParser`` the snapshot log (a string that is shown) or its own buffer.
protocol StringSink {
    /// Appends `bytes[range]`.
    mutating func appendText(_ bytes: [UInt8], _ range: Range<Int>)
    /// Appends one byte.
    mutating func appendText(_ byte: UInt8)
}

extension [UInt8]: StringSink {
    @inline(__always)
    mutating func appendText(_ bytes: [UInt8], _ range: Range<Int>) {
        append(contentsOf: bytes[range])
    }

    @inline(__always)
    mutating func appendText(_ byte: UInt8) {
        append(byte)
    }
}

extension RepairRules {
    /// Reads a string opened with `kind` from `pos` (after its opening delimiter) into `sink`, up
    /// to its closing delimiter: true when that was read, false when the bytes ended first (noted
    /// as truncated). A delimiter that is not followed by what `context` allows (a colon after a
    /// key, a comma or closing bracket after a value) is kept as an inner quote; control
    /// characters are kept as they are (both noted). Contents of valid strings are never changed.
    @inline(__always)
    mutating func readString<Bytes: LookAheadBytes, Sink: StringSink>(
        _ kind: QuoteKind, _ context: Context, _ source: Bytes, into sink: inout Sink
    ) throws(Bytes.Shortage) -> Bool {
        while true {
            let runStart = pos
            while pos < source.end, kind.isPlain(source.bytes[pos]) { pos += 1 }
            if pos > runStart { sink.appendText(source.bytes, runStart..<pos) }
            if try source.isPast(pos) { break }
            let byte = source.bytes[pos]
            if byte == ByteClass.backslash {
                if try source.isPast(pos + 1) {
                    pos = source.end
                    break
                }
                try appendEscape(kind, source, into: &sink)
                continue
            }
            if let closeLength = try source.closingLength(kind, at: pos) {
                if try source.isClosing(after: pos + closeLength, context) {
                    pos += closeLength
                    return true
                }
                note(.escapedInnerQuote)
                sink.appendText(source.bytes, pos..<(pos + closeLength))
                pos += closeLength
                continue
            }
            if byte < 0x20 { note(.escapedControlCharacter) }
            sink.appendText(byte)
            pos += 1
        }
        noteTruncated()
        return false
    }

    /// Appends the character of the escape sequence at `pos` (a backslash with a byte after it)
    /// and advances past it. An escape JSON does not allow is noted: `\'` in a `"` string, and
    /// Python's `\xNN` and `\UXXXXXXXX` (decoded); one that cannot be decoded keeps its backslash.
    private mutating func appendEscape<Bytes: LookAheadBytes, Sink: StringSink>(
        _ kind: QuoteKind, _ source: Bytes, into sink: inout Sink
    ) throws(Bytes.Shortage) {
        let letter = source.bytes[pos + 1]
        if let simple = Self.simpleEscape(letter) {
            if letter == ByteClass.apostrophe, kind == .double { note(.fixedInvalidEscape) }
            sink.appendText(simple)
            pos += 2
            return
        }
        switch letter {
        case UInt8(ascii: "x"), UInt8(ascii: "U"):
            // Python's `repr`: `\xNN` for U+0000–U+00FF it does not print (C0, DEL, C1, NBSP),
            // `\UXXXXXXXX` beyond U+FFFF.
            _ = try source.isPast(pos + 11)
            let digits = letter == UInt8(ascii: "x") ? 2 : 8
            note(.fixedInvalidEscape)
            if let value = Self.hexValue(source, at: pos + 2, digits: digits), let scalar = Unicode.Scalar(value) {
                append(scalar, into: &sink)
                pos += 2 + digits
            } else {
                sink.appendText(ByteClass.backslash)
                pos += 1
            }
        case UInt8(ascii: "u"):
            // A surrogate pair reads 12 bytes: wait for them (or the end).
            _ = try source.isPast(pos + 11)
            if let scalar = unicodeEscape(source) {
                append(scalar, into: &sink)
            } else {
                note(.fixedInvalidEscape)
                sink.appendText(ByteClass.backslash)
                pos += 1
            }
        default:
            note(.fixedInvalidEscape)
            sink.appendText(ByteClass.backslash)
            pos += 1
        }
    }

    /// The byte a one-letter escape (`\"`, `\\`, `\/`, `\'`, `\n`, `\t`, `\r`, `\b`, `\f`) stands
    /// for; nil for the others.
    @inline(__always)
    private static func simpleEscape(_ letter: UInt8) -> UInt8? {
        switch letter {
        case ByteClass.quote, ByteClass.backslash, UInt8(ascii: "/"), ByteClass.apostrophe: return letter
        case UInt8(ascii: "n"): return 0x0A
        case UInt8(ascii: "t"): return 0x09
        case UInt8(ascii: "r"): return 0x0D
        case UInt8(ascii: "b"): return 0x08
        case UInt8(ascii: "f"): return 0x0C
        default: return nil
        }
    }

    private func append<Sink: StringSink>(_ scalar: Unicode.Scalar, into sink: inout Sink) {
        for byte in scalar.utf8 { sink.appendText(byte) }
    }

    /// The value of the `digits` hexadecimal digits at `index`, or nil.
    private static func hexValue<Bytes: LookAheadBytes>(_ source: Bytes, at index: Int, digits: Int = 4) -> UInt32? {
        guard index + digits <= source.end else { return nil }
        var value: UInt32 = 0
        for offset in 0..<digits {
            let byte = source.bytes[index + offset]
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
    private mutating func unicodeEscape<Bytes: LookAheadBytes>(_ source: Bytes) -> Unicode.Scalar? {
        guard let high = Self.hexValue(source, at: pos + 2) else { return nil }
        if (0xD800...0xDBFF).contains(high) {
            if pos + 7 < source.end, source.bytes[pos + 6] == ByteClass.backslash, source.bytes[pos + 7] == UInt8(ascii: "u"),
                let low = Self.hexValue(source, at: pos + 8), (0xDC00...0xDFFF).contains(low)
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
