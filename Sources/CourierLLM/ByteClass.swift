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
}

/// String delimiters the tolerant parsers accept (read by ``LookAheadBytes/quoteKind(at:)`` and
/// ``LookAheadBytes/closingLength(_:at:)``).
enum QuoteKind: Sendable {
    case double, single, smartDouble, smartSingle

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
