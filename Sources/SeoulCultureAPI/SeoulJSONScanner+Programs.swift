import Foundation

/// Rows read straight into ``CulturalProgram``s, with no ``CulturalEventRow`` of 24 Strings in
/// between: a row's values are first noted as places in the body, then only what the model keeps
/// becomes a String. The dates become days from their bytes, the id is hashed from the bytes,
/// RGSTDATE and THEMECODE are only checked. The program is made by the same rules as
/// ``CulturalProgram/init(row:)`` (its `days`, `isFree`, `coordinates` and ``StableID``).
extension SeoulJSONScanner {
    /// A row's value as read, before anything is made of it.
    enum FieldValue {
        /// Missing, `null`, or neither a string nor a number: `""`.
        case absent
        /// A string without escapes: its bytes in the body, not yet checked as UTF-8.
        case bytes(Range<Int>)
        /// A string with escapes (checked), or a number's text.
        case text(String)
    }

    /// One row as a program; nil when it has no usable dates (left out, as
    /// ``CulturalProgram/programs(from:)`` does). Every string is checked as JSONDecoder
    /// checks it, kept or not: invalid UTF-8 anywhere is a mismatch.
    mutating func program() throws(Mismatch) -> CulturalProgram? {
        try readFields()
        return try makeProgram()
    }

    /// Reads the row object at the cursor into ``fields``: strings as places in the body (or
    /// their text when escaped), a number as its Double's text, null or any other value as `""`
    /// — what ``CulturalEventRow/init(from:)`` makes of them.
    mutating func readFields() throws(Mismatch) {
        for index in fields.indices { fields[index] = .absent }
        try expect(UInt8(ascii: "{"))
        if peek() == UInt8(ascii: "}") {
            position += 1
            return
        }
        var ordinal = 0
        var seen: UInt32 = 0
        while true {
            let index = try fieldIndex(ordinal: ordinal)
            ordinal += 1
            try Self.noteOnce(index, in: &seen)
            try expect(UInt8(ascii: ":"))
            switch (index, peek() ?? 0) {
            case (let index?, UInt8(ascii: "\"")): fields[index] = try stringValue()
            case (let index?, UInt8(ascii: "-")), (let index?, UInt8(ascii: "0")...UInt8(ascii: "9")):
                fields[index] = .text(try number().map { String($0) } ?? "")
            case (let index?, _):
                fields[index] = .absent
                try skipValue(depth: 0)
            case (nil, _): try skipValue(depth: 0)
            }
            guard let next = peek() else { throw Mismatch() }
            position += 1
            if next == UInt8(ascii: "}") { return }
            guard next == UInt8(ascii: ",") else { throw Mismatch() }
        }
    }

    /// The program of the row in ``fields``.
    private mutating func makeProgram() throws(Mismatch) -> CulturalProgram? {
        try check(Slot.registered)
        try check(Slot.themeCode)
        try check(Slot.dateRange)
        let start = try day(Slot.startDate)
        let end = try day(Slot.endDate)
        guard let (first, last) = CulturalProgram.days(start: start, end: end, dateRange: { uncheckedText(Slot.dateRange) }) else {
            // Left out, but checked all the same: JSONDecoder refuses a body with bad text anywhere.
            for slot in fields.indices { _ = try text(slot) }
            return nil
        }
        var id = StableID()
        mix(Slot.title, into: &id)
        mix(Slot.startDate, into: &id)
        mix(Slot.endDate, into: &id)
        mix(Slot.dateRange, into: &id)
        mix(Slot.place, into: &id)
        mix(Slot.homepage, into: &id)
        let (latitude, longitude) = CulturalProgram.coordinates(try text(Slot.lat), try text(Slot.lot))
        return CulturalProgram(
            id: id.text, title: FieldText.trimmed(try text(Slot.title)), category: try text(Slot.codeName), district: try text(Slot.district),
            place: try sharedText(Slot.place), startDate: first, endDate: last, isFree: try isFree(), fee: try sharedText(Slot.fee),
            latitude: latitude, longitude: longitude, homepageLink: FieldText.link(try text(Slot.homepage)),
            ticketLink: FieldText.link(try text(Slot.orgLink)), imageLink: FieldText.link(try text(Slot.mainImage)),
            organization: try sharedText(Slot.organization), target: try sharedText(Slot.target), player: try sharedText(Slot.player),
            program: try sharedText(Slot.program), notes: try sharedText(Slot.etcDescription), inquiry: try text(Slot.inquiry),
            time: try sharedText(Slot.time), ticket: try sharedText(Slot.ticket))
    }

    /// The bytes of `range` in the body.
    func slice(_ range: Range<Int>) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[range])
    }

    /// The text of field `slot` (checked UTF-8), `""` when absent.
    func text(_ slot: Int) throws(Mismatch) -> String {
        switch fields[slot] {
        case .absent: ""
        case .bytes(let range): try Self.text(slice(range))
        case .text(let text): text
        }
    }

    /// ``text(_:)`` of a field whose values repeat from row to row: a String of more than 15
    /// bytes (a heap object; shorter ones live inline) is made once per answer (``SharedTexts``).
    private mutating func sharedText(_ slot: Int) throws(Mismatch) -> String {
        guard case .bytes(let range) = fields[slot], range.count > 15 else { return try text(slot) }
        return try shared.text(slice(range)) { (raw: UnsafeRawBufferPointer) throws(Mismatch) in try Self.text(raw) }
    }

    /// ``text(_:)`` of a field already checked.
    private func uncheckedText(_ slot: Int) -> String {
        switch fields[slot] {
        case .absent: ""
        case .bytes(let range): String(decoding: slice(range), as: UTF8.self)
        case .text(let text): text
        }
    }

    /// Checks field `slot`'s bytes as UTF-8 without making a String of them.
    private func check(_ slot: Int) throws(Mismatch) {
        guard case .bytes(let range) = fields[slot] else { return }
        guard Self.isValidUTF8(slice(range)) else { throw Mismatch() }
    }

    /// The day field `slot` starts with (see ``SeoulDay/init(_:)``), read from its bytes.
    private func day(_ slot: Int) throws(Mismatch) -> SeoulDay? {
        switch fields[slot] {
        case .absent: return nil
        case .bytes(let range):
            try check(slot)
            return SeoulDay(utf8: slice(range))
        case .text(let text): return SeoulDay(text)
        }
    }

    /// IS_FREE: the plain bytes of `"무료"` answer at once; anything else is read as text.
    private func isFree() throws(Mismatch) -> Bool {
        if case .bytes(let range) = fields[Slot.isFree], Self.free.withUnsafeBytes({ Self.same(slice(range), $0) }) { return true }
        return CulturalProgram.isFree(try text(Slot.isFree))
    }

    /// Adds field `slot`'s bytes (its text's UTF-8) to `id`.
    private func mix(_ slot: Int, into id: inout StableID) {
        switch fields[slot] {
        case .absent: id.mix(UnsafeRawBufferPointer(start: nil, count: 0))
        case .bytes(let range): id.mix(slice(range))
        case .text(let text): id.mix(text)
        }
    }

    /// `"무료"` in UTF-8.
    private static let free: [UInt8] = Array("무료".utf8)

    /// Whether `raw` is well-formed UTF-8 (no overlong forms, surrogates or values past
    /// U+10FFFF), as `String(validating:)` decides, but without making a String.
    static func isValidUTF8(_ raw: UnsafeRawBufferPointer) -> Bool {
        if isASCII(raw) { return true }
        var iterator = raw.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    /// Where each field sits in ``fields``: its place in ``CulturalEventRow/CodingKeys/allCases``.
    private enum Slot {
        static let codeName = at(.codeName), district = at(.district), title = at(.title), dateRange = at(.dateRange)
        static let place = at(.place), organization = at(.organization), target = at(.target), fee = at(.fee)
        static let inquiry = at(.inquiry), player = at(.player), program = at(.program), etcDescription = at(.etcDescription)
        static let orgLink = at(.orgLink), mainImage = at(.mainImage), registered = at(.registered), ticket = at(.ticket)
        static let startDate = at(.startDate), endDate = at(.endDate), themeCode = at(.themeCode), lot = at(.lot)
        static let lat = at(.lat), isFree = at(.isFree), homepage = at(.homepage), time = at(.time)

        private static func at(_ key: CulturalEventRow.CodingKeys) -> Int {
            CulturalEventRow.CodingKeys.allCases.firstIndex(of: key) ?? 0
        }
    }
}
