import Foundation

/// The JSON grammar under `SeoulJSONScanner`: whitespace, literals, objects, arrays, strings
/// with every escape, numbers — strict, as JSONDecoder reads them; anything else a mismatch.
extension SeoulJSONScanner {

    mutating func skipSpace() {
        // Most calls find a token at once: one comparison says so (0x21 and up is never space).
        while position < bytes.count {
            let byte = bytes[position]
            guard byte <= 0x20, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
            position += 1
        }
    }

    mutating func peek() -> UInt8? {
        if position < bytes.count, bytes[position] > 0x20 { return bytes[position] }  // no space: the usual case
        skipSpace()
        return position < bytes.count ? bytes[position] : nil
    }

    mutating func expect(_ byte: UInt8) throws(Mismatch) {
        if position < bytes.count, bytes[position] == byte {  // no space before it: the usual case
            position += 1
            return
        }
        guard peek() == byte else { throw Mismatch() }
        position += 1
    }

    mutating func literal(_ word: StaticString) throws(Mismatch) {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count else { throw Mismatch() }
        for offset in 0..<count where bytes[position + offset] != word.utf8Start[offset] { throw Mismatch() }
        position += count
    }

    /// `null` as nil, else `value`.
    mutating func nullOr<T>(_ value: (inout SeoulJSONScanner) throws(Mismatch) -> T) throws(Mismatch) -> T? {
        if peek() == UInt8(ascii: "n") {
            try literal("null")
            return nil
        }
        return try value(&self)
    }

    /// An object's members; a key twice is a mismatch (JSONDecoder keeps the first, and decides).
    mutating func object(_ member: (inout SeoulJSONScanner, String) throws(Mismatch) -> Void) throws(Mismatch) {
        try expect(UInt8(ascii: "{"))
        if peek() == UInt8(ascii: "}") {
            position += 1
            return
        }
        var keys = SeenKeys()
        while true {
            let key = try string()
            guard keys.insert(key) else { throw Mismatch() }
            try expect(UInt8(ascii: ":"))
            try member(&self, key)
            guard let next = peek() else { throw Mismatch() }
            position += 1
            if next == UInt8(ascii: "}") { return }
            guard next == UInt8(ascii: ",") else { throw Mismatch() }
        }
    }

    mutating func array(_ element: (inout SeoulJSONScanner) throws(Mismatch) -> Void) throws(Mismatch) {
        try expect(UInt8(ascii: "["))
        if peek() == UInt8(ascii: "]") {
            position += 1
            return
        }
        while true {
            try element(&self)
            guard let next = peek() else { throw Mismatch() }
            position += 1
            if next == UInt8(ascii: "]") { return }
            guard next == UInt8(ascii: ",") else { throw Mismatch() }
        }
    }

    /// A string; its bytes are copied as they are unless it has escapes.
    mutating func string() throws(Mismatch) -> String {
        switch try stringValue() {
        case .absent: ""
        case .bytes(let range): try Self.text(slice(range))
        case .text(let text): text
        }
    }

    /// A string at the cursor: its place when it has no escapes (its bytes not yet checked as
    /// UTF-8), else its text.
    mutating func stringValue() throws(Mismatch) -> FieldValue {
        try expect(UInt8(ascii: "\""))
        let start = position
        position = Self.plainRun(bytes, from: start)
        guard position < bytes.count else { throw Mismatch() }
        switch bytes[position] {
        case UInt8(ascii: "\""):
            position += 1
            return .bytes(start..<(position - 1))
        case UInt8(ascii: "\\"): return .text(try escapedString(from: start))
        default: throw Mismatch()
        }
    }

    /// `raw` as a String; invalid UTF-8 is a mismatch, as JSONDecoder refuses it.
    /// `String(decoding:)` repairs rather than refuses, and a repair always writes U+FFFD
    /// (EF BF BD): a result without an 0xEF byte was not repaired. Only text with one (rare in
    /// Korean, which is EA–ED) pays for `String(validating:)`, whose generic-metadata lookup per
    /// call had been half the scan.
    static func text(_ raw: UnsafeRawBufferPointer) throws(Mismatch) -> String {
        guard let text = validText(raw) else { throw Mismatch() }
        return text
    }

    static func validText(_ raw: UnsafeRawBufferPointer) -> String? {
        var text = String(decoding: raw, as: UTF8.self)
        if isASCII(raw) { return text }  // ASCII is valid UTF-8: no repair to look for
        let mayBeRepaired = text.withUTF8 { utf8 in
            guard let base = utf8.baseAddress, !utf8.isEmpty else { return false }
            return memchr(base, 0xEF, utf8.count) != nil
        }
        guard !mayBeRepaired || String(validating: raw, as: UTF8.self) != nil else { return nil }
        return text
    }

    /// Whether every byte of `raw` is below 0x80 (eight at a time).
    static func isASCII(_ raw: UnsafeRawBufferPointer) -> Bool {
        guard let base = raw.baseAddress else { return true }
        var index = 0
        var high: UInt64 = 0
        while index + 8 <= raw.count {
            high |= base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            index += 8
        }
        while index < raw.count {
            high |= UInt64(raw[index])
            index += 1
        }
        return high & 0x8080_8080_8080_8080 == 0
    }

    /// Where the bytes from `start` stop being plain string content: the first quote,
    /// backslash or control character (or the end). A tight loop over locals: walking the
    /// scanner's own `position` kept it in memory and made the scan twice as slow. Eight bytes
    /// are looked at a time while none of them can stop the run (a fifth of the scan, byte by byte).
    static func plainRun(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        var index = start
        let end = bytes.count
        if let base = bytes.baseAddress {
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highs: UInt64 = 0x8080_8080_8080_8080
            while index + 8 <= end {
                let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                // Bit tricks: a high bit is set where a byte is 0 after the XOR, or below 0x20;
                // exact for "is any byte so", which is all that is asked (the bytes decide below).
                let quote = word ^ (ones &* 0x22)
                let backslash = word ^ (ones &* 0x5C)
                let found = ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word)
                if found & highs != 0 { break }
                index += 8
            }
        }
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { return index }
            index += 1
        }
        return end
    }

    mutating func escapedString(from start: Int) throws(Mismatch) -> String {
        var buffer = [UInt8](UnsafeRawBufferPointer(rebasing: bytes[start..<position]))
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = buffer.withUnsafeBytes({ Self.validText($0) }) else { throw Mismatch() }
                return text
            case UInt8(ascii: "\\"):
                guard position < bytes.count else { throw Mismatch() }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(escape)
                case UInt8(ascii: "b"): buffer.append(0x08)
                case UInt8(ascii: "f"): buffer.append(0x0C)
                case UInt8(ascii: "n"): buffer.append(0x0A)
                case UInt8(ascii: "r"): buffer.append(0x0D)
                case UInt8(ascii: "t"): buffer.append(0x09)
                case UInt8(ascii: "u"): buffer.append(contentsOf: String(try unicodeEscape()).utf8)
                default: throw Mismatch()
                }
            case 0..<0x20: throw Mismatch()
            default: buffer.append(byte)
            }
        }
        throw Mismatch()
    }

    /// The scalar of `\uXXXX` (a surrogate pair takes a second `\uXXXX`); the `\u` is read.
    mutating func unicodeEscape() throws(Mismatch) -> Unicode.Scalar {
        let high = try hex4()
        if (0xD800..<0xDC00).contains(high) {
            try literal("\\u")
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low), let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)) else {
                throw Mismatch()
            }
            return scalar
        }
        guard let scalar = Unicode.Scalar(high) else { throw Mismatch() }
        return scalar
    }

    mutating func hex4() throws(Mismatch) -> UInt32 {
        guard position + 4 <= bytes.count else { throw Mismatch() }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            position += 1
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw Mismatch()
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// A JSON number's text (checked against the JSON grammar) as a Double.
    mutating func number() throws(Mismatch) -> Double? {
        skipSpace()
        let start = position
        func digits(_ scanner: inout SeoulJSONScanner) -> Int {
            let first = scanner.position
            while scanner.position < scanner.bytes.count, (0x30...0x39).contains(scanner.bytes[scanner.position]) { scanner.position += 1 }
            return scanner.position - first
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "-") { position += 1 }
        let integerStart = position
        let integerDigits = digits(&self)
        guard integerDigits > 0, integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0") else { throw Mismatch() }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard digits(&self) > 0 else { throw Mismatch() }
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard digits(&self) > 0 else { throw Mismatch() }
        }
        return Double(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self))
    }

    /// Plain digits (an optional minus) that fit an Int; `3512.0` or `3e3` are left to JSONDecoder.
    mutating func integer() throws(Mismatch) -> Int {
        skipSpace()
        let start = position
        if position < bytes.count, bytes[position] == UInt8(ascii: "-") { position += 1 }
        let digits = position
        while position < bytes.count, (0x30...0x39).contains(bytes[position]) { position += 1 }
        // JSON has no leading zeros (`01`): Int(String) would take them, JSONDecoder refuses
        // them — the scanner must never decide differently (found by fuzzing).
        if position - digits > 1, bytes[digits] == UInt8(ascii: "0") { throw Mismatch() }
        guard let value = Int(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)) else { throw Mismatch() }
        if position < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[position]) { throw Mismatch() }
        return value
    }

    /// Steps over any value, checking its syntax; deeper than the answer ever nests is a mismatch.
    mutating func skipValue(depth: Int) throws(Mismatch) {
        guard depth < 16 else { throw Mismatch() }
        switch peek() ?? 0 {
        case UInt8(ascii: "{"):
            try object { (scanner: inout SeoulJSONScanner, _: String) throws(Mismatch) in try scanner.skipValue(depth: depth + 1) }
        case UInt8(ascii: "["): try array { (scanner: inout SeoulJSONScanner) throws(Mismatch) in try scanner.skipValue(depth: depth + 1) }
        case UInt8(ascii: "\""): _ = try string()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): _ = try number()
        default: throw Mismatch()
        }
    }
}
