import CourierTransportCore
import Foundation
import HTTPTypes

/// An outbox entry's file: a version line, one line of JSON with everything but the body, then
/// the body's bytes.
///
/// ```text
/// courier-outbox 1\n
/// {"id":"…","method":"POST","url":"https://…","headers":[["content-type","application/json"]],
///  "key":"\"8e03…\"","keyHeader":"Idempotency-Key","createdAt":1764374400000,"attempts":1,
///  "state":"queued","bodyLength":14,"bodySHA256":"…"}\n
/// {"item":"tea"}
/// ```
///
/// A file is written whole to a temporary name, synced and renamed into place, so a reader sees
/// a whole entry or none. Reading trusts nothing: the version, every field (a method token, an
/// `http(s)` URL without control bytes, valid header names and values, counts in range), the
/// JSON's nesting, and the body's length and SHA-256 are checked; anything else is not an entry.
enum OutboxEntryFormat {
    static let versionLine = Data("courier-outbox 1\n".utf8)
    /// The most bytes of the JSON line.
    static let maxMetadataBytes = 256 << 10
    /// The most header fields of a request or an answer in an entry.
    static let maxFields = 256
    /// The deepest nesting of arrays and objects the JSON line may have (it needs 4).
    static let maxDepth = 6

    private struct Record: Codable {
        var id: String
        var method: String
        var url: String
        var headers: [[String]]
        var key: String
        var keyHeader: String
        var createdAt: Int64
        var attempts: Int
        var state: OutboxEntry.State
        var lastError: String?
        var notBefore: Int64?
        var bodyLength: Int
        var bodySHA256: String
        var answer: RecordedAnswer?
    }

    private struct RecordedAnswer: Codable {
        var status: Int
        var headers: [[String]]
        var body: Data
    }

    /// The file's bytes for `entry` and its `body`.
    static func encode(_ entry: OutboxEntry, body: Data) -> Data {
        var hasher = SHA256Hasher()
        hasher.update(body)
        let record = Record(
            id: entry.id, method: entry.method.rawValue, url: entry.url, headers: pairs(entry.headerFields),
            key: entry.idempotencyKey, keyHeader: entry.keyHeader.rawName, createdAt: milliseconds(entry.createdAt),
            attempts: entry.attempts, state: entry.state, lastError: entry.lastError, notBefore: entry.notBefore.map(milliseconds),
            bodyLength: body.count, bodySHA256: hasher.finalize(),
            answer: entry.answer.map { RecordedAnswer(status: $0.status, headers: pairs($0.headerFields), body: $0.body) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding these plain values cannot fail; an empty file would be refused when read.
        let json = (try? encoder.encode(record)) ?? Data()
        return versionLine + json + Data([0x0A]) + body
    }

    /// The entry and body in `data`, or nil unless it is a whole, well-formed entry.
    static func decode(_ data: Data) -> (entry: OutboxEntry, body: Data)? {
        guard data.starts(with: versionLine) else { return nil }
        let start = data.startIndex + versionLine.count
        let searchEnd = data.index(start, offsetBy: min(maxMetadataBytes, data.endIndex - start))
        guard let newline = data[start..<searchEnd].firstIndex(of: 0x0A) else { return nil }
        let json = data[start..<newline]
        guard depth(of: json) <= maxDepth, let record = try? JSONDecoder().decode(Record.self, from: json) else { return nil }
        let body = Data(data[data.index(after: newline)...])
        guard body.count == record.bodyLength else { return nil }
        var hasher = SHA256Hasher()
        hasher.update(body)
        guard hasher.finalize() == record.bodySHA256, let entry = entry(from: record) else { return nil }
        return (entry, body)
    }

    /// The entry a record describes, when every field is one a writer could have written.
    private static func entry(from record: Record) -> OutboxEntry? {
        guard isID(record.id), let method = HTTPRequest.Method(record.method), isURL(record.url),
            let headers = fields(record.headers), !record.key.isEmpty, record.key.utf8.count <= 1024,
            HTTPField.isValidValue(record.key), let keyHeader = HTTPField.Name(record.keyHeader),
            (0...Int(Int32.max)).contains(record.attempts), let createdAt = date(record.createdAt),
            record.lastError.map({ $0.utf8.count <= 4096 }) ?? true
        else { return nil }
        var notBefore: Date?
        if let value = record.notBefore {
            guard let date = date(value) else { return nil }
            notBefore = date
        }
        var answer: OutboxEntry.Answer?
        if let recorded = record.answer {
            guard (100...999).contains(recorded.status), recorded.body.count <= OutboxLimits.maxAnswerBytes,
                let answerHeaders = fields(recorded.headers)
            else { return nil }
            answer = OutboxEntry.Answer(status: recorded.status, headerFields: answerHeaders, body: recorded.body)
        }
        return OutboxEntry(
            id: record.id, method: method, url: record.url, headerFields: headers, idempotencyKey: record.key,
            keyHeader: keyHeader, createdAt: createdAt, bodyLength: record.bodyLength, attempts: record.attempts,
            state: record.state, lastError: record.lastError, notBefore: notBefore, answer: answer)
    }

    /// Whether `id` is an entry name: 16 hex digits of time, `-`, 8 random hex digits.
    static func isID(_ id: String) -> Bool {
        let bytes = Array(id.utf8)
        guard bytes.count == 25, bytes[16] == UInt8(ascii: "-") else { return false }
        return bytes.enumerated().allSatisfy { index, byte in
            index == 16 || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
        }
    }

    /// Whether `url` is an `http(s)` URL of visible ASCII, at most 64 KiB (what a write may keep).
    static func isURL(_ url: String) -> Bool {
        let lowercased = url.prefix(8).lowercased()
        guard lowercased.hasPrefix("http://") || lowercased.hasPrefix("https://"), url.utf8.count <= 64 << 10 else { return false }
        return url.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }

    private static func fields(_ pairs: [[String]]) -> HTTPFields? {
        guard pairs.count <= maxFields else { return nil }
        var fields = HTTPFields()
        for pair in pairs {
            guard pair.count == 2, let name = HTTPField.Name(pair[0]), HTTPField.isValidValue(pair[1]) else { return nil }
            fields.append(HTTPField(name: name, value: pair[1]))
        }
        return fields
    }

    private static func pairs(_ fields: HTTPFields) -> [[String]] {
        fields.map { [$0.name.rawName, $0.value] }
    }

    /// Milliseconds since 1970, saturated.
    static func milliseconds(_ date: Date) -> Int64 {
        let value = (date.timeIntervalSince1970 * 1000).rounded()
        guard value.isFinite else { return 0 }
        return value >= 9.2e18 ? Int64.max : value <= -9.2e18 ? Int64.min : Int64(value)
    }

    /// The date `milliseconds` after 1970, when it falls between 1970 and the year 10000.
    private static func date(_ milliseconds: Int64) -> Date? {
        guard (0...253_402_300_800_000).contains(milliseconds) else { return nil }
        return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// The deepest nesting of arrays and objects in `json` (strings skipped).
    static func depth(of json: Data) -> Int {
        var (depth, deepest, inString, escaped) = (0, 0, false, false)
        for byte in json {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                deepest = max(deepest, depth)
                if deepest > maxDepth { return deepest }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return deepest
    }
}
