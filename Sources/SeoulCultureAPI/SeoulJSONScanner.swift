import Foundation

/// The fast path for `culturalEventInfo`'s JSON: one pass over the bytes straight into
/// ``CulturalEventRow``s, without JSONDecoder's keyed containers (which took 165 ms for the
/// 10,000 rows of SeoulBenchmark, three times the whole budget).
///
/// It reads strict JSON of the answer's known shape only. Anything else — bad syntax, a field of
/// an unexpected type in the envelope, nesting deeper than the answer has — gives nil, and
/// ``SeoulAnswerParser`` hands the body to JSONDecoder, whose reading is the reference: the
/// scanner never decides an answer differently, it only gets there sooner.
struct SeoulJSONScanner {
    /// Row keys → their position in ``CulturalEventRow/CodingKeys/allCases``.
    private static let fieldIndex: [String: Int] = Dictionary(
        uniqueKeysWithValues: CulturalEventRow.CodingKeys.allCases.enumerated().map { ($0.element.rawValue, $0.offset) }
    )

    private let bytes: UnsafeRawBufferPointer
    private var position = 0
    /// The previous row's keys in order, with their fields (see ``fieldIndex(ordinal:)``).
    private var keyOrder: [(bytes: [UInt8], index: Int?)] = []

    private init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// The envelope of `body`, or nil when the body is not plain JSON of the expected shape.
    static func envelope(_ body: Data) -> SeoulAnswerParser.Envelope? {
        body.withUnsafeBytes { buffer in
            var scanner = SeoulJSONScanner(bytes: buffer)
            return try? scanner.topLevel()
        }
    }

    private struct Mismatch: Error {}

    // MARK: - The answer's shape

    private mutating func topLevel() throws(Mismatch) -> SeoulAnswerParser.Envelope {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        var envelope = SeoulAnswerParser.Envelope()
        try object { (scanner: inout SeoulJSONScanner, key: String) throws(Mismatch) in
            switch key {
            case "culturalEventInfo": envelope.culturalEventInfo = try scanner.nullOr { (s: inout SeoulJSONScanner) throws(Mismatch) in try s.wrapped() }
            case "RESULT": envelope.result = try scanner.nullOr { (s: inout SeoulJSONScanner) throws(Mismatch) in try s.result() }
            default: try scanner.skipValue(depth: 0)
            }
        }
        skipSpace()
        guard position == bytes.count else { throw Mismatch() }
        return envelope
    }

    private mutating func wrapped() throws(Mismatch) -> SeoulAnswerParser.Wrapped {
        var wrapped = SeoulAnswerParser.Wrapped()
        try object { (scanner: inout SeoulJSONScanner, key: String) throws(Mismatch) in
            switch key {
            case "list_total_count": wrapped.listTotalCount = try scanner.nullOr { (s: inout SeoulJSONScanner) throws(Mismatch) in try s.integer() }
            case "RESULT": wrapped.result = try scanner.nullOr { (s: inout SeoulJSONScanner) throws(Mismatch) in try s.result() }
            case "row": wrapped.row = try scanner.nullOr { (s: inout SeoulJSONScanner) throws(Mismatch) in try s.rows() }
            default: try scanner.skipValue(depth: 0)
            }
        }
        return wrapped
    }

    private mutating func result() throws(Mismatch) -> SeoulResult {
        var code: String?, message: String?
        try object { (scanner: inout SeoulJSONScanner, key: String) throws(Mismatch) in
            switch key {
            case "CODE": code = try scanner.string()
            case "MESSAGE": message = try scanner.string()
            default: try scanner.skipValue(depth: 0)
            }
        }
        guard let code, let message else { throw Mismatch() }
        return SeoulResult(code: code, message: message)
    }

    private mutating func rows() throws(Mismatch) -> [CulturalEventRow] {
        var rows: [CulturalEventRow] = []
        rows.reserveCapacity(1000)
        try array { (scanner: inout SeoulJSONScanner) throws(Mismatch) in rows.append(try scanner.row()) }
        return rows
    }

    /// One row: strings as they are; a number as its Double's text, null or any other value as
    /// `""` — what ``CulturalEventRow/init(from:)`` makes of them.
    private mutating func row() throws(Mismatch) -> CulturalEventRow {
        var row = CulturalEventRow()
        try expect(UInt8(ascii: "{"))
        if peek() == UInt8(ascii: "}") {
            position += 1
            return row
        }
        var ordinal = 0
        while true {
            let index = try fieldIndex(ordinal: ordinal)
            ordinal += 1
            try expect(UInt8(ascii: ":"))
            switch (index, peek() ?? 0) {
            case (let index?, UInt8(ascii: "\"")): row.setField(index, try string())
            case (let index?, UInt8(ascii: "-")), (let index?, UInt8(ascii: "0")...UInt8(ascii: "9")): row.setField(index, try number().map { String($0) } ?? "")
            case (let index?, _): row.setField(index, ""); try skipValue(depth: 0)
            case (nil, _): try skipValue(depth: 0)
            }
            guard let next = peek() else { throw Mismatch() }
            position += 1
            if next == UInt8(ascii: "}") { return row }
            guard next == UInt8(ascii: ",") else { throw Mismatch() }
        }
    }

    /// The field of the key at the cursor. Every row has its keys in the same order, so the
    /// key's bytes are first compared with the key at the same place in the row before; only a
    /// different key is made a String and looked up (hashing 240,000 keys was a tenth of the scan).
    private mutating func fieldIndex(ordinal: Int) throws(Mismatch) -> Int? {
        try expect(UInt8(ascii: "\""))
        let start = position
        position = Self.plainRun(bytes, from: start)
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
            position = start - 1
            return Self.fieldIndex[try string()]  // escapes in a key: rare, read the slow way
        }
        let raw = UnsafeRawBufferPointer(rebasing: bytes[start..<position])
        position += 1
        if ordinal < keyOrder.count, keyOrder[ordinal].bytes.withUnsafeBytes({ Self.same($0, raw) }) {
            return keyOrder[ordinal].index
        }
        let index = Self.fieldIndex[try Self.text(raw)]
        if ordinal < keyOrder.count {
            keyOrder[ordinal] = (Array(raw), index)
        } else if ordinal == keyOrder.count {
            keyOrder.append((Array(raw), index))
        }
        return index
    }

    private static func same(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        guard let x = a.baseAddress, let y = b.baseAddress else { return true }
        return memcmp(x, y, a.count) == 0
    }

    // MARK: - JSON

    private mutating func skipSpace() {
        while position < bytes.count, bytes[position] == 0x20 || bytes[position] == 0x0A || bytes[position] == 0x0D || bytes[position] == 0x09 {
            position += 1
        }
    }

    private mutating func peek() -> UInt8? {
        skipSpace()
        return position < bytes.count ? bytes[position] : nil
    }

    private mutating func expect(_ byte: UInt8) throws(Mismatch) {
        guard peek() == byte else { throw Mismatch() }
        position += 1
    }

    private mutating func literal(_ word: StaticString) throws(Mismatch) {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count else { throw Mismatch() }
        for offset in 0..<count where bytes[position + offset] != word.utf8Start[offset] { throw Mismatch() }
        position += count
    }

    /// `null` as nil, else `value`.
    private mutating func nullOr<T>(_ value: (inout SeoulJSONScanner) throws(Mismatch) -> T) throws(Mismatch) -> T? {
        if peek() == UInt8(ascii: "n") {
            try literal("null")
            return nil
        }
        return try value(&self)
    }

    private mutating func object(_ member: (inout SeoulJSONScanner, String) throws(Mismatch) -> Void) throws(Mismatch) {
        try expect(UInt8(ascii: "{"))
        if peek() == UInt8(ascii: "}") {
            position += 1
            return
        }
        while true {
            let key = try string()
            try expect(UInt8(ascii: ":"))
            try member(&self, key)
            guard let next = peek() else { throw Mismatch() }
            position += 1
            if next == UInt8(ascii: "}") { return }
            guard next == UInt8(ascii: ",") else { throw Mismatch() }
        }
    }

    private mutating func array(_ element: (inout SeoulJSONScanner) throws(Mismatch) -> Void) throws(Mismatch) {
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
    private mutating func string() throws(Mismatch) -> String {
        try expect(UInt8(ascii: "\""))
        let start = position
        position = Self.plainRun(bytes, from: start)
        guard position < bytes.count else { throw Mismatch() }
        switch bytes[position] {
        case UInt8(ascii: "\""):
            defer { position += 1 }
            return try Self.text(UnsafeRawBufferPointer(rebasing: bytes[start..<position]))
        case UInt8(ascii: "\\"): return try escapedString(from: start)
        default: throw Mismatch()
        }
    }

    /// `raw` as a String; invalid UTF-8 is a mismatch, as JSONDecoder refuses it.
    /// `String(decoding:)` repairs rather than refuses, and a repair always writes U+FFFD
    /// (EF BF BD): a result without an 0xEF byte was not repaired. Only text with one (rare in
    /// Korean, which is EA–ED) pays for `String(validating:)`, whose generic-metadata lookup per
    /// call had been half the scan.
    private static func text(_ raw: UnsafeRawBufferPointer) throws(Mismatch) -> String {
        guard let text = validText(raw) else { throw Mismatch() }
        return text
    }

    private static func validText(_ raw: UnsafeRawBufferPointer) -> String? {
        var text = String(decoding: raw, as: UTF8.self)
        let mayBeRepaired = text.withUTF8 { utf8 in
            guard let base = utf8.baseAddress, !utf8.isEmpty else { return false }
            return memchr(base, 0xEF, utf8.count) != nil
        }
        guard !mayBeRepaired || String(validating: raw, as: UTF8.self) != nil else { return nil }
        return text
    }

    /// Where the bytes from `start` stop being plain string content: the first quote,
    /// backslash or control character (or the end). A tight loop over locals: walking the
    /// scanner's own `position` kept it in memory and made the scan twice as slow.
    private static func plainRun(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        var index = start
        let end = bytes.count
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { return index }
            index += 1
        }
        return end
    }

    private mutating func escapedString(from start: Int) throws(Mismatch) -> String {
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
    private mutating func unicodeEscape() throws(Mismatch) -> Unicode.Scalar {
        let high = try hex4()
        if (0xD800..<0xDC00).contains(high) {
            try literal("\\u")
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low), let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)) else { throw Mismatch() }
            return scalar
        }
        guard let scalar = Unicode.Scalar(high) else { throw Mismatch() }
        return scalar
    }

    private mutating func hex4() throws(Mismatch) -> UInt32 {
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
    private mutating func number() throws(Mismatch) -> Double? {
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
    private mutating func integer() throws(Mismatch) -> Int {
        skipSpace()
        let start = position
        if position < bytes.count, bytes[position] == UInt8(ascii: "-") { position += 1 }
        while position < bytes.count, (0x30...0x39).contains(bytes[position]) { position += 1 }
        guard let value = Int(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)) else { throw Mismatch() }
        if position < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[position]) { throw Mismatch() }
        return value
    }

    /// Steps over any value, checking its syntax; deeper than the answer ever nests is a mismatch.
    private mutating func skipValue(depth: Int) throws(Mismatch) {
        guard depth < 16 else { throw Mismatch() }
        switch peek() ?? 0 {
        case UInt8(ascii: "{"): try object { (scanner: inout SeoulJSONScanner, _: String) throws(Mismatch) in try scanner.skipValue(depth: depth + 1) }
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
