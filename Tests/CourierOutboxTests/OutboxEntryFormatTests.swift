import Foundation
import HTTPTypes
import Testing

@testable import CourierOutbox

/// The journal's entry file: what is written reads back the same; a torn, altered or hostile file
/// is no entry (and never a crash).
@Suite("Outbox entry format: whole entries or none")
struct OutboxEntryFormatTests {
    static func entry(attempts: Int = 2, state: OutboxEntry.State = .queued) -> OutboxEntry {
        var fields = HTTPFields()
        fields[.contentType] = "application/json"
        fields[HTTPField.Name("X-Trace")!] = "a b"
        return OutboxEntry(
            id: "0188f2a1b2c3d4e5-0a1b2c3d", method: .post, url: "https://api.example.com/a//b?x=1&flag+%2F", headerFields: fields,
            idempotencyKey: "\"8e03978e-40d5-43e8-bc93-6894a57f9324\"", keyHeader: HTTPField.Name("Idempotency-Key")!,
            createdAt: Date(timeIntervalSince1970: 1_764_374_400.123), bodyLength: 14, attempts: attempts, state: state,
            lastError: "HTTP 503", notBefore: Date(timeIntervalSince1970: 1_764_374_460),
            answer: state == .failed ? OutboxEntry.Answer(status: 422, headerFields: fields, body: Data("no".utf8)) : nil)
    }

    @Test("an entry and its body read back as written, queued or failed (with its answer)")
    func roundTrip() throws {
        for state in OutboxEntry.State.allCases {
            let body = Data(#"{"item":"tea"}"#.utf8)
            let decoded = try #require(OutboxEntryFormat.decode(OutboxEntryFormat.encode(Self.entry(state: state), body: body)))
            #expect(decoded.entry == Self.entry(state: state))
            #expect(decoded.body == body)
        }
    }

    @Test("a torn file, a changed body byte, another version, deep nesting, hostile fields: no entry")
    func hostile() throws {
        let file = OutboxEntryFormat.encode(Self.entry(), body: Data(#"{"item":"tea"}"#.utf8))
        for cut in [0, 1, 10, file.count / 2, file.count - 1] {
            #expect(OutboxEntryFormat.decode(file.prefix(cut)) == nil, "torn at \(cut)")
        }
        var flipped = file
        flipped[flipped.count - 2] ^= 0x01
        #expect(OutboxEntryFormat.decode(flipped) == nil, "a body byte changed")
        #expect(OutboxEntryFormat.decode(Data("courier-outbox 2\n".utf8) + file.dropFirst(17)) == nil)
        let text = String(decoding: file, as: UTF8.self)
        let swaps: [(String, String)] = [
            (#""method":"POST""#, #""method":"PO ST""#),
            (#""url":"https:"#, #""url":"file:"#),
            (#""attempts":2"#, #""attempts":-1"#),
            (#""attempts":2"#, #""attempts":99999999999999999999"#),
            (#""createdAt":1764374400123"#, #""createdAt":-5"#),
            (#""state":"queued""#, #""state":"sent""#),
            (#""X-Trace","a b""#, #""X-Trace","a\rb""#),
            (#""id":"0188f2a1b2c3d4e5-0a1b2c3d""#, #""id":"..\/..\/etc-00000000""#),
        ]
        for (from, to) in swaps {
            #expect(text.contains(from), "\(from) is in the file")
            #expect(OutboxEntryFormat.decode(Data(text.replacingOccurrences(of: from, with: to).utf8)) == nil, "\(to) accepted")
        }
        let deep = String(repeating: "[", count: 100_000)
        #expect(OutboxEntryFormat.decode(Data("courier-outbox 1\n\(deep)\n".utf8)) == nil)
        #expect(OutboxEntryFormat.depth(of: Data(#"{"a":"[[[[[[[[","b":[[1]]}"#.utf8)) == 3, "brackets in strings do not count")
    }

    @Test("a server's answer of 1,000 fields and a 1 MiB body is kept within what the reader accepts")
    func hostileAnswerKept() throws {
        var fields = HTTPFields()
        for index in 0..<1000 { fields.append(HTTPField(name: HTTPField.Name("x-flood-\(index)")!, value: String(repeating: "v", count: 100))) }
        let answer = OutboxEntry.Answer.kept(status: 422, headerFields: fields, body: Data(count: 1 << 20))
        #expect(answer.headerFields.count <= 256 && answer.body.count == OutboxLimits.maxAnswerBytes)
        var entry = Self.entry(state: .failed)
        entry.answer = answer
        let decoded = try #require(OutboxEntryFormat.decode(OutboxEntryFormat.encode(entry, body: Data())))
        #expect(decoded.entry.answer == answer)
    }
}
