import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

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
            return try answer(result, total: 0, rows: [])
        }
        let envelope: Envelope
        if reading == .scanner, let scanned = SeoulJSONScanner.envelope(body) {
            envelope = scanned
        } else {
            do {
                envelope = try JSONDecoder().decode(Envelope.self, from: body)
            } catch {
                throw .unexpectedAnswer(excerpt(body))
            }
        }
        if let wrapped = envelope.culturalEventInfo {
            let result = wrapped.result ?? SeoulResult(code: SeoulResult.ok, message: "")
            return try answer(result, total: wrapped.listTotalCount ?? 0, rows: wrapped.row ?? [])
        }
        if let result = envelope.result { return try answer(result, total: 0, rows: []) }
        throw .unexpectedAnswer(excerpt(body))
    }

    private static func answer(_ result: SeoulResult, total: Int, rows: [CulturalEventRow]) throws(SeoulAPIError) -> CulturalEventAnswer {
        switch result.code {
        case SeoulResult.ok: return CulturalEventAnswer(totalCount: total, rows: rows)
        case SeoulResult.noData: return .empty
        case SeoulResult.invalidKey: throw .invalidAPIKey
        default: throw .service(code: result.code, message: result.message)
        }
    }

    private static func excerpt(_ body: Data) -> String {
        let text = String(decoding: body.prefix(120), as: UTF8.self).replacingOccurrences(of: "\n", with: " ")
        return body.isEmpty ? "(empty body)" : text
    }

    struct Envelope: Decodable {
        var culturalEventInfo: Wrapped?
        var result: SeoulResult?

        enum CodingKeys: String, CodingKey {
            case culturalEventInfo
            case result = "RESULT"
        }
    }

    struct Wrapped: Decodable {
        var listTotalCount: Int?
        var result: SeoulResult?
        var row: [CulturalEventRow]?

        enum CodingKeys: String, CodingKey {
            case listTotalCount = "list_total_count"
            case result = "RESULT"
            case row
        }
    }
}

/// The `CODE` and `MESSAGE` of an XML answer, read with Foundation's XMLParser.
final class XMLResult: NSObject, XMLParserDelegate {
    private var code: String?
    private var message: String?
    private var element: String?
    private var text = ""

    static func parse(_ data: Data) -> SeoulResult? {
        let delegate = XMLResult()
        let parser = XMLParser(data: data)
        parser.delegate = delegate
        guard parser.parse(), let code = delegate.code else { return nil }
        return SeoulResult(code: code, message: delegate.message ?? "")
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        element = elementName
        text = ""
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += string
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if elementName == "CODE", code == nil { code = value }
        if elementName == "MESSAGE", message == nil { message = value }
        text = ""
    }
}
