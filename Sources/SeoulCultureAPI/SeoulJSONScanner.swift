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

    let bytes: UnsafeRawBufferPointer
    var position = 0
    /// The keys of the rows before, in order: where their bytes are in the body, and their fields
    /// (see ``fieldIndex(ordinal:)``).
    private var keyOrder: [(start: Int, count: Int, index: Int?)] = []
    /// The current row's fields, by their place in ``CulturalEventRow/CodingKeys/allCases``,
    /// while a row is read straight into a program (see `program()`).
    var fields = [FieldValue](repeating: .absent, count: CulturalEventRow.CodingKeys.allCases.count)
    /// The answer's repeated field values, each made a String once (see `sharedText(_:)`).
    var shared = SharedTexts()

    private init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// The envelope of `body` with its rows, or nil when the body is not plain JSON of the
    /// expected shape.
    static func envelope(_ body: Data) -> SeoulAnswerParser.Envelope<CulturalEventRow>? {
        body.withUnsafeBytes { buffer in
            var scanner = SeoulJSONScanner(bytes: buffer)
            return try? scanner.topLevel { (s: inout SeoulJSONScanner) throws(Mismatch) in try s.row() }
        }
    }

    /// The envelope of `body` with each row made a program straight from the bytes (rows without
    /// usable dates left out, as ``CulturalProgram/programs(from:)`` does), or nil when the body
    /// is not plain JSON of the expected shape.
    static func programEnvelope(_ body: Data) -> SeoulAnswerParser.Envelope<CulturalProgram>? {
        body.withUnsafeBytes { buffer in
            var scanner = SeoulJSONScanner(bytes: buffer)
            return try? scanner.topLevel { (s: inout SeoulJSONScanner) throws(Mismatch) in try s.program() }
        }
    }

    /// Not the shape (or not JSON): JSONDecoder decides.
    struct Mismatch: Error {}

    // MARK: - The answer's shape

    /// The answer, each row read by `row` (nil: left out).
    private mutating func topLevel<Row>(_ row: (inout SeoulJSONScanner) throws(Mismatch) -> Row?) throws(Mismatch) -> SeoulAnswerParser.Envelope<Row>
    {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        var envelope = SeoulAnswerParser.Envelope<Row>()
        try object { (scanner: inout SeoulJSONScanner, key: String) throws(Mismatch) in
            switch key {
            case "culturalEventInfo":
                envelope.culturalEventInfo = try scanner.nullOr { (s: inout SeoulJSONScanner) throws(Mismatch) in try s.wrapped(row) }
            case "RESULT": envelope.result = try scanner.nullOr { (s: inout SeoulJSONScanner) throws(Mismatch) in try s.result() }
            default: try scanner.skipValue(depth: 0)
            }
        }
        skipSpace()
        guard position == bytes.count else { throw Mismatch() }
        return envelope
    }

    private mutating func wrapped<Row>(_ row: (inout SeoulJSONScanner) throws(Mismatch) -> Row?) throws(Mismatch) -> SeoulAnswerParser.Wrapped<Row> {
        var wrapped = SeoulAnswerParser.Wrapped<Row>()
        try object { (scanner: inout SeoulJSONScanner, key: String) throws(Mismatch) in
            switch key {
            case "list_total_count": wrapped.listTotalCount = try scanner.nullOr { (s: inout SeoulJSONScanner) throws(Mismatch) in try s.integer() }
            case "RESULT": wrapped.result = try scanner.nullOr { (s: inout SeoulJSONScanner) throws(Mismatch) in try s.result() }
            case "row": wrapped.row = try scanner.nullOr { (s: inout SeoulJSONScanner) throws(Mismatch) in try s.rows(row) }
            default: try scanner.skipValue(depth: 0)
            }
        }
        return wrapped
    }

    private mutating func result() throws(Mismatch) -> SeoulResult {
        var code: String?
        var message: String?
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

    private mutating func rows<Row>(_ row: (inout SeoulJSONScanner) throws(Mismatch) -> Row?) throws(Mismatch) -> [Row] {
        var rows: [Row] = []
        rows.reserveCapacity(1000)
        try array { (scanner: inout SeoulJSONScanner) throws(Mismatch) in
            if let next = try row(&scanner) { rows.append(next) }
        }
        return rows
    }

    /// One row: every field's text as ``readFields()`` reads it.
    private mutating func row() throws(Mismatch) -> CulturalEventRow {
        try readFields()
        var row = CulturalEventRow()
        for slot in fields.indices { row.setField(slot, try text(slot)) }
        return row
    }

    /// Marks field `index` as read in this row; a field twice is a mismatch (JSONDecoder keeps
    /// the first of a repeated key, and decides such rare bodies itself).
    static func noteOnce(_ index: Int?, in seen: inout UInt32) throws(Mismatch) {
        guard let index else { return }
        let bit: UInt32 = 1 << UInt32(index)
        guard seen & bit == 0 else { throw Mismatch() }
        seen |= bit
    }

    /// The field of the key at the cursor. Every row has its keys in the same order, so the
    /// bytes are first compared with the key at the same place in the row before, in place (its
    /// closing quote right after them); only a different key is scanned, made a String and
    /// looked up (hashing 240,000 keys was a tenth of the scan; scanning each for its end, another).
    mutating func fieldIndex(ordinal: Int) throws(Mismatch) -> Int? {
        try expect(UInt8(ascii: "\""))
        let start = position
        if ordinal < keyOrder.count, let base = bytes.baseAddress {
            let known = keyOrder[ordinal]
            let end = start + known.count
            if end < bytes.count, bytes[end] == UInt8(ascii: "\""), memcmp(base + known.start, base + start, known.count) == 0 {
                position = end + 1
                return known.index
            }
        }
        position = Self.plainRun(bytes, from: start)
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
            position = start - 1
            return Self.fieldIndex[try string()]  // escapes in a key: rare, read the slow way
        }
        let raw = UnsafeRawBufferPointer(rebasing: bytes[start..<position])
        position += 1
        let index = Self.fieldIndex[try Self.text(raw)]
        if ordinal < keyOrder.count {
            keyOrder[ordinal] = (start, raw.count, index)
        } else if ordinal == keyOrder.count {
            keyOrder.append((start, raw.count, index))
        }
        return index
    }

    static func same(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        guard let x = a.baseAddress, let y = b.baseAddress else { return true }
        return memcmp(x, y, a.count) == 0
    }
}
