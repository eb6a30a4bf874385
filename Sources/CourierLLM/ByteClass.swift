import Foundation

/// Byte classification helpers for the UTF-8 scanners.
enum ByteClass {
    static let quote = UInt8(ascii: "\"")
    static let apostrophe = UInt8(ascii: "'")
    static let backslash = UInt8(ascii: "\\")
    static let newline: UInt8 = 0x0A

    @inline(__always)
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    @inline(__always)
    static func isASCIILetter(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    /// Letters, digits, `_`, `$` and any non-ASCII byte: the bytes of words and unquoted keys.
    @inline(__always)
    static func isWordByte(_ byte: UInt8) -> Bool {
        isASCIILetter(byte) || isDigit(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$") || byte >= 0x80
    }

    /// The kind of string delimiter that starts at `index`, with its length in bytes.
    static func quoteKind(in bytes: [UInt8], at index: Int, end: Int) -> (QuoteKind, Int)? {
        let byte = bytes[index]
        if byte == quote { return (.double, 1) }
        if byte == apostrophe { return (.single, 1) }
        if byte == 0xE2, index + 2 < end, bytes[index + 1] == 0x80 {
            switch bytes[index + 2] {
            case 0x9C, 0x9D: return (.smartDouble, 3)
            case 0x98, 0x99: return (.smartSingle, 3)
            default: return nil
            }
        }
        return nil
    }

    /// Whether a typographic quote (“ ” ‘ ’) starts at `index`.
    static func isSmartQuote(in bytes: [UInt8], at index: Int, end: Int) -> Bool {
        guard bytes[index] == 0xE2, index + 2 < end, bytes[index + 1] == 0x80 else { return false }
        let last = bytes[index + 2]
        return last == 0x9C || last == 0x9D || last == 0x98 || last == 0x99
    }
}

/// String delimiters the tolerant parser accepts.
enum QuoteKind: Sendable {
    case double, single, smartDouble, smartSingle

    /// The length of the closing delimiter at `index`, if one is there.
    func closingLength(in bytes: [UInt8], at index: Int, end: Int) -> Int? {
        let byte = bytes[index]
        switch self {
        case .double: return byte == ByteClass.quote ? 1 : nil
        case .single: return byte == ByteClass.apostrophe ? 1 : nil
        case .smartDouble, .smartSingle:
            if byte == (self == .smartDouble ? ByteClass.quote : ByteClass.apostrophe) { return 1 }
            guard byte == 0xE2, index + 2 < end, bytes[index + 1] == 0x80 else { return nil }
            let last = bytes[index + 2]
            if self == .smartDouble { return last == 0x9D || last == 0x9C ? 3 : nil }
            return last == 0x99 || last == 0x98 ? 3 : nil
        }
    }

    /// Whether a byte can be skipped in bulk inside a string with this delimiter.
    @inline(__always)
    func isPlain(_ byte: UInt8) -> Bool {
        if byte == ByteClass.backslash || byte < 0x20 { return false }
        switch self {
        case .double: return byte != ByteClass.quote
        case .single: return byte != ByteClass.apostrophe
        case .smartDouble, .smartSingle: return byte != ByteClass.quote && byte != ByteClass.apostrophe && byte != 0xE2
        }
    }
}
