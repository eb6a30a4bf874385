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
        guard let start = scalars.firstIndex(where: { !isWhiteSpace($0) }), let end = scalars.lastIndex(where: { !isWhiteSpace($0) }) else { return "" }
        return String(scalars[start...end])
    }

    /// `text`, trimmed, when it is an http(s) link without inner spaces or control characters
    /// (so `URL(string:)` takes it); nil otherwise.
    static func link(_ text: String) -> String? {
        var trimmed = trimmed(text)
        let clean = trimmed.withUTF8 { bytes in
            (bytes.starts(with: "https://".utf8) || bytes.starts(with: "http://".utf8)) && !bytes.contains { $0 <= 0x20 || $0 == 0x7F }
        }
        return clean ? trimmed : nil
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
