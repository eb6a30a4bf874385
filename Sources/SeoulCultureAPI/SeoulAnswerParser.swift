public import Foundation

/// Turns a `culturalEventInfo` body into an answer or a ``SeoulAPIError``, whatever shape it
/// came in: the wrapped JSON, the bare `{"RESULT":…}` JSON, or the XML the service sends for some
/// errors even when JSON was asked.
public enum SeoulAnswerParser {
    /// How JSON bodies are read.
    public enum JSONReading: Sendable {
        /// `SeoulJSONScanner` first, JSONDecoder for whatever it does not take (the default).
        case scanner
        /// JSONDecoder only: the reference reading, kept for tests and the benchmark's baseline.
        case foundation
    }

    /// Parses `body`.
    public static func parse(_ body: Data, reading: JSONReading = .scanner) throws(SeoulAPIError) -> CulturalEventAnswer {
        let first = body.first { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF) }
        if first == UInt8(ascii: "<") {
            guard let result = XMLResult.parse(body) else { throw .unexpectedAnswer(excerpt(body)) }
            let (total, rows) = try answer(result, total: 0, rows: [CulturalEventRow]())
            return CulturalEventAnswer(totalCount: total, rows: rows)
        }
        let envelope: Envelope<CulturalEventRow>
        if reading == .scanner, let scanned = SeoulJSONScanner.envelope(body) {
            envelope = scanned
        } else {
            do {
                envelope = try JSONDecoder().decode(Envelope<CulturalEventRow>.self, from: body)
            } catch {
                throw .unexpectedAnswer(excerpt(body))
            }
        }
        let (total, rows) = try answer(envelope, body: body)
        return CulturalEventAnswer(totalCount: total, rows: rows)
    }

    /// Parses `body` into programs: what ``CulturalProgram/programs(from:)`` makes of
    /// ``parse(_:reading:)``'s rows, with the same errors. With `.scanner` a JSON body is read
    /// straight into programs, without a ``CulturalEventRow`` between (the dates become days from
    /// the bytes, fields the model does not keep are only checked); a body the scanner does not
    /// take is read by JSONDecoder, and its rows made programs.
    public static func programs(_ body: Data, reading: JSONReading = .scanner) throws(SeoulAPIError) -> CulturalProgramAnswer {
        if reading == .scanner, let scanned = SeoulJSONScanner.programEnvelope(body) {
            let (total, programs) = try answer(scanned, body: body)
            return CulturalProgramAnswer(totalCount: total, programs: programs)
        }
        let answer = try parse(body, reading: .foundation)
        return CulturalProgramAnswer(totalCount: answer.totalCount, programs: CulturalProgram.programs(from: answer.rows))
    }

    /// The total and rows of a JSON answer, or its error.
    private static func answer<Row>(_ envelope: Envelope<Row>, body: Data) throws(SeoulAPIError) -> (total: Int, rows: [Row]) {
        if let wrapped = envelope.culturalEventInfo {
            let result = wrapped.result ?? SeoulResult(code: SeoulResult.ok, message: "")
            return try answer(result, total: wrapped.listTotalCount ?? 0, rows: wrapped.row ?? [])
        }
        if let result = envelope.result { return try answer(result, total: 0, rows: [Row]()) }
        throw .unexpectedAnswer(excerpt(body))
    }

    private static func answer<Row>(_ result: SeoulResult, total: Int, rows: [Row]) throws(SeoulAPIError) -> (total: Int, rows: [Row]) {
        switch result.code {
        case SeoulResult.ok: return (total, rows)
        case SeoulResult.noData: return (0, [])
        case SeoulResult.invalidKey: throw .invalidAPIKey
        default: throw .service(code: result.code, message: result.message)
        }
    }

    private static func excerpt(_ body: Data) -> String {
        let text = String(decoding: body.prefix(120), as: UTF8.self).replacingOccurrences(of: "\n", with: " ")
        return body.isEmpty ? "(empty body)" : text
    }

    /// The answer's JSON: rows of type `Row` (``CulturalEventRow``s, or programs made straight
    /// from the bytes by the scanner).
    struct Envelope<Row> {
        var culturalEventInfo: Wrapped<Row>?
        var result: SeoulResult?

        enum CodingKeys: String, CodingKey {
            case culturalEventInfo
            case result = "RESULT"
        }
    }

    struct Wrapped<Row> {
        var listTotalCount: Int?
        var result: SeoulResult?
        var row: [Row]?

        enum CodingKeys: String, CodingKey {
            case listTotalCount = "list_total_count"
            case result = "RESULT"
            case row
        }
    }
}

extension SeoulAnswerParser.Envelope: Decodable where Row: Decodable {}
extension SeoulAnswerParser.Wrapped: Decodable where Row: Decodable {}

/// The `CODE` and `MESSAGE` of an XML answer, read by hand.
///
/// Not with Foundation's `XMLParser`: fuzzing found that FoundationXML on Linux crashes on
/// bytes a server could send (`<?x?>` — a segfault in its processing-instruction callback;
/// `<a \xF9=""/>` — a trap in its start-element callback). The error answer is two elements of
/// text; reading them needs no parser.
enum XMLResult {
    static func parse(_ data: Data) -> SeoulResult? {
        guard let text = String(data: data, encoding: .utf8), let code = element("CODE", in: text) else { return nil }
        return SeoulResult(code: code, message: element("MESSAGE", in: text) ?? "")
    }

    /// The text of the first `<name>…</name>` in `text`, entities decoded, trimmed; nil when
    /// there is none.
    static func element(_ name: String, in text: String) -> String? {
        guard let open = text.range(of: "<\(name)>"),
            let close = text.range(of: "</\(name)>", range: open.upperBound..<text.endIndex)
        else { return nil }
        var value = String(text[open.upperBound..<close.lowerBound])
        if value.hasPrefix("<![CDATA["), value.hasSuffix("]]>") {
            value = String(value.dropFirst(9).dropLast(3))
        } else {
            for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&apos;", "'"), ("&amp;", "&")] {
                value = value.replacingOccurrences(of: entity, with: character)
            }
        }
        return value.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
