import Foundation

/// Cheap text clean-up for the row fields, on the hot path of building thousands of programs.
/// Foundation's `trimmingCharacters(in:)` bridges through NSString on Linux (about 1 µs a call,
/// eight calls a row); almost no field has anything to trim, so the two ends are looked at first
/// and the string is returned untouched.
enum FieldText {
    /// `text` without leading and trailing white space (Unicode's White_Space: spaces, tabs,
    /// line breaks, U+3000 …).
    static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.first, let last = scalars.last else { return text }
        guard isWhiteSpace(first) || isWhiteSpace(last) else { return text }
        guard let start = scalars.firstIndex(where: { !isWhiteSpace($0) }), let end = scalars.lastIndex(where: { !isWhiteSpace($0) }) else {
            return ""
        }
        return String(scalars[start...end])
    }

    /// `text`, trimmed, when it is an http(s) link without inner spaces or control characters
    /// (so `URL(string:)` takes it); nil otherwise.
    static func link(_ text: String) -> String? {
        // Printable ASCII only (as links almost always are): nothing to trim, nothing unclean.
        var text = text
        let printable = text.withUTF8 { bytes in
            Self.startsAsLink(bytes) && Self.isPrintableASCII(bytes)
        }
        if printable { return text }
        var trimmed = trimmed(text)
        let clean = trimmed.withUTF8 { bytes in
            Self.startsAsLink(bytes) && !bytes.contains { $0 <= 0x20 || $0 == 0x7F }
        }
        return clean ? trimmed : nil
    }

    /// Whether every byte is printable ASCII (0x21–0x7E), looked at eight at a time.
    static func isPrintableASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var index = 0
        while index + 8 <= bytes.count {
            let word = UnsafeRawPointer(base).loadUnaligned(fromByteOffset: index, as: UInt64.self)
            // A high bit where a byte is below 0x21, or (adding 1) above 0x7E — exact for "any".
            if (((word &- ones &* 0x21) & ~word) | (word &+ ones) | word) & highs != 0 { return false }
            index += 8
        }
        while index < bytes.count {
            if bytes[index] <= 0x20 || bytes[index] >= 0x7F { return false }
            index += 1
        }
        return true
    }

    /// Whether `bytes` start with `https://` or `http://`.
    private static func startsAsLink(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        func starts(_ prefix: StaticString) -> Bool {
            let count = prefix.utf8CodeUnitCount
            guard bytes.count >= count, let base = bytes.baseAddress else { return false }
            return memcmp(base, prefix.utf8Start, count) == 0
        }
        return starts("https://") || starts("http://")
    }

    /// Unicode's White_Space property, spelled out: `properties.isWhitespace` looks the scalar up
    /// in the property tables, a cost on every field.
    static func isWhiteSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }
}
