import CourierTransportCore
import Crypto
import Foundation
import HTTPTypes

@testable import CourierOutbox

// libFuzzer entry for the outbox journal's entry decoder (OutboxEntryFormat.decode, the real code
// compiled from Sources/CourierOutbox; the SHA-256 it checks is Fuzz/Shims/Crypto's, verified
// against the FIPS known answers before the first input).
//
// Input: byte 0 bit 0 picks the mode.
// - 0, raw: the rest is an entry file exactly as read from disk (version line, JSON line, body:
//   the body's length and SHA-256 in the JSON must be right, as for any damaged file).
// - 1, sealed: the rest is the JSON line, a newline, then the body. The harness puts the version
//   line in front and, when the JSON line is an object (JSONSerialization), overwrites its
//   `bodyLength` and `bodySHA256` with the trailing body's (the layout's own rule, not the
//   decoder's code) and writes it out again, so the fuzzer gets past the checksum and explores
//   the field validation — what a file written by someone else could hold. Otherwise the bytes
//   are decoded as they are, behind the version line.
// Checked: no crash, hang or unbounded allocation; a decoded entry keeps the documented
// invariants (id: 16 lowercase hex digits, '-', 8; an http:// or https:// URL (scheme in any
// case) of visible ASCII, at most 64 KiB; a method token; a non-empty key of at most 1 KiB that is
// a valid field value; attempts in 0...Int32.max; times between 1970 and the year 10000; body
// as long as bodyLength; at most 256 fields per list; a failing answer's status in 100...999 and
// its body at most OutboxLimits.maxAnswerBytes; lastError at most 4 KiB); encoding what decoded
// decodes again to an equal entry and body, and encoding that again gives the same bytes; decoding
// the same bytes as a slice of a larger Data (startIndex > 0) gives the same result.
//
// With FUZZ_WRITE_SEEDS=DIR set, it writes seed entries made by the real encoder into DIR and
// exits (Fuzz/fuzz-common.sh does this before each run).

private let versionLine = Array("courier-outbox 1\n".utf8)

private func sha256Hex(_ bytes: some DataProtocol) -> String {
    var hasher = SHA256Hasher()
    hasher.update(bytes)
    return hasher.finalize()
}

/// The file a sealed input stands for: the version line, the JSON line with the body's length and
/// SHA-256 filled in (when it is an object), the body.
private func sealed(_ input: ArraySlice<UInt8>) -> [UInt8] {
    guard let newline = input.firstIndex(of: 0x0A) else { return versionLine + input }
    let json = input[..<newline]
    let body = input[(newline + 1)...]
    guard json.count <= OutboxEntryFormat.maxMetadataBytes,
        var object = (try? JSONSerialization.jsonObject(with: Data(json))) as? [String: Any]
    else { return versionLine + input }
    object["bodyLength"] = body.count
    object["bodySHA256"] = sha256Hex(body)
    guard let line = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else {
        return versionLine + input
    }
    return versionLine + [UInt8](line) + [0x0A] + body
}

@_cdecl("LLVMFuzzerTestOneInput")
public func outboxEntryFuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = fuzzBytes(data, size)
    guard let mode = input.first else { return 0 }
    let file = mode & 1 == 1 ? sealed(input.dropFirst()) : Array(input.dropFirst())
    let fileData = Data(file)
    let decoded = OutboxEntryFormat.decode(fileData)

    // The same bytes as a slice of a larger Data: the reader must honour startIndex.
    let slice = (Data([0xAA, 0xBB]) + fileData).dropFirst(2)
    let fromSlice = OutboxEntryFormat.decode(slice)
    guard fromSlice?.entry == decoded?.entry, fromSlice?.body == decoded?.body else {
        fuzzFailure(
            "decoding a slice differs: \(String(describing: decoded?.entry)) vs \(String(describing: fromSlice?.entry)) for \(fuzzShow(file))")
    }

    guard let (entry, body) = decoded else { return 0 }
    checkInvariants(entry, body: body, file: file)

    // Round trip: what decoded encodes to a file that decodes the same, and is then stable.
    let first = OutboxEntryFormat.encode(entry, body: body)
    guard let again = OutboxEntryFormat.decode(first) else {
        fuzzFailure("re-encoded entry does not decode: \(fuzzShow(first)) (from \(fuzzShow(file)))")
    }
    guard again.entry == entry, again.body == body else {
        fuzzFailure("re-encoded entry decodes differently: \(entry) vs \(again.entry) (from \(fuzzShow(file)))")
    }
    let second = OutboxEntryFormat.encode(again.entry, body: again.body)
    guard second == first else { fuzzFailure("encoding is not stable: \(fuzzShow(first)) vs \(fuzzShow(second))") }
    return 0
}

private func isHex(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
}

/// The year 10000, in seconds since 1970.
private let latest: TimeInterval = 253_402_300_800

private func checkFields(_ fields: HTTPFields, _ what: String, file: [UInt8]) {
    guard fields.count <= 256 else { fuzzFailure("\(fields.count) \(what) fields accepted") }
    for field in fields {
        guard HTTPField.isValidValue(field.value), HTTPField.Name(field.name.rawName) != nil else {
            fuzzFailure("\(what) field \(field.name.rawName.debugDescription): \(field.value.debugDescription) accepted from \(fuzzShow(file))")
        }
    }
}

private func checkInvariants(_ entry: OutboxEntry, body: Data, file: [UInt8]) {
    let id = Array(entry.id.utf8)
    guard id.count == 25, id[16] == UInt8(ascii: "-"), id[..<16].allSatisfy(isHex), id[17...].allSatisfy(isHex) else {
        fuzzFailure("id \(entry.id.debugDescription) accepted")
    }
    let url = Array(entry.url.utf8)
    let scheme = String(decoding: url.prefix(8), as: UTF8.self).lowercased()
    guard scheme.hasPrefix("http://") || scheme.hasPrefix("https://"), url.count <= 64 << 10, url.allSatisfy({ (0x21...0x7E).contains($0) })
    else { fuzzFailure("url \(entry.url.debugDescription) accepted") }
    guard HTTPRequest.Method(entry.method.rawValue) != nil else { fuzzFailure("method \(entry.method.rawValue.debugDescription) accepted") }
    guard !entry.idempotencyKey.isEmpty, entry.idempotencyKey.utf8.count <= 1024, HTTPField.isValidValue(entry.idempotencyKey) else {
        fuzzFailure("key \(entry.idempotencyKey.debugDescription) accepted")
    }
    guard HTTPField.Name(entry.keyHeader.rawName) != nil else { fuzzFailure("key header \(entry.keyHeader.rawName.debugDescription) accepted") }
    checkFields(entry.headerFields, "request", file: file)
    guard (0...Int(Int32.max)).contains(entry.attempts) else { fuzzFailure("attempts \(entry.attempts) accepted") }
    guard body.count == entry.bodyLength else { fuzzFailure("body of \(body.count) bytes, bodyLength \(entry.bodyLength)") }
    for (name, date) in [("createdAt", entry.createdAt), ("notBefore", entry.notBefore)] {
        guard let date else { continue }
        let seconds = date.timeIntervalSince1970
        guard seconds >= 0, seconds <= latest else { fuzzFailure("\(name) \(seconds) s after 1970 accepted") }
    }
    guard (entry.lastError?.utf8.count ?? 0) <= 4096 else { fuzzFailure("lastError of \(entry.lastError?.utf8.count ?? 0) bytes accepted") }
    if let answer = entry.answer {
        guard (100...999).contains(answer.status) else { fuzzFailure("answer status \(answer.status) accepted") }
        guard answer.body.count <= OutboxLimits.maxAnswerBytes else { fuzzFailure("answer body of \(answer.body.count) bytes accepted") }
        checkFields(answer.headerFields, "answer", file: file)
    }
}

// MARK: - Seeds

@_cdecl("LLVMFuzzerInitialize")
public func outboxEntryFuzzInitialize(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
    // The decoder's checksum is the shim's SHA-256: never fuzz behind a wrong one.
    SHA256.selfTest()
    guard let directory = ProcessInfo.processInfo.environment["FUZZ_WRITE_SEEDS"] else { return 0 }
    let created = Date(timeIntervalSince1970: 1_764_374_400)
    func fields(_ pairs: [(String, String)]) -> HTTPFields {
        var fields = HTTPFields()
        for (name, value) in pairs { fields.append(HTTPField(name: HTTPField.Name(name)!, value: value)) }
        return fields
    }
    func entry(
        _ id: String = "0000019ac8f0a000-1a2b3c4d", method: HTTPRequest.Method = .post, url: String = "https://api.example.com/v1/orders",
        headers: [(String, String)] = [("Content-Type", "application/json")], key: String = "\"8e03b9c2-5d1f-4e6a-9b7c-0d1e2f3a4b5c\"",
        keyHeader: String = "Idempotency-Key", createdAt: Date = created, body: Data, attempts: Int = 0, state: OutboxEntry.State = .queued,
        lastError: String? = nil, notBefore: Date? = nil, answer: OutboxEntry.Answer? = nil
    ) -> (OutboxEntry, Data) {
        (
            OutboxEntry(
                id: id, method: method, url: url, headerFields: fields(headers), idempotencyKey: key, keyHeader: HTTPField.Name(keyHeader)!,
                createdAt: createdAt, bodyLength: body.count, attempts: attempts, state: state, lastError: lastError, notBefore: notBefore,
                answer: answer), body
        )
    }
    let json = Data(#"{"item":"tea","quantity":2}"#.utf8)
    let entries: [(String, (OutboxEntry, Data))] = [
        ("plain", entry(body: Data(#"{"item":"tea"}"#.utf8))),
        (
            "retrying",
            entry(
                headers: [("Content-Type", "application/json"), ("Accept", "application/json"), ("X-Trace", "a, b")], body: json, attempts: 3,
                lastError: "HTTP 503", notBefore: created.addingTimeInterval(30.5))
        ),
        (
            "failed",
            entry(
                method: .put, url: "https://api.example.com/v1/orders/42?dry=1&x=%20", body: json, attempts: 1, state: .failed,
                lastError: "HTTP 422",
                answer: OutboxEntry.Answer(
                    status: 422, headerFields: fields([("Content-Type", "application/problem+json"), ("Retry-After", "120")]),
                    body: Data(#"{"title":"Unprocessable","detail":"quantity \u00e9"}"#.utf8)))
        ),
        (
            "empty",
            entry(
                "ffffffffffffffff-00000000", method: .delete, url: "http://localhost:8080/items/1", headers: [], key: "k", keyHeader: "X-Request-Id",
                body: Data())
        ),
        (
            "custom-method",
            entry(
                method: HTTPRequest.Method("PURGE")!, url: "HTTP://EXAMPLE.com/%E2%82%AC",
                headers: [("X-Empty", ""), ("X-Obs", "caf\u{e9} \u{c548}\u{b155}")],
                key: "W/\"x\"", body: Data("\u{1b}[2J".utf8), attempts: Int(Int32.max), notBefore: Date(timeIntervalSince1970: 0))
        ),
        (
            "binary",
            entry(
                createdAt: Date(timeIntervalSince1970: 253_402_300_800), body: Data((0...255).map { UInt8($0) }), state: .failed,
                lastError: "networkError(-1004 cannotConnectToHost) \u{0}\u{7f}\n\u{2028}",
                answer: OutboxEntry.Answer(status: 999, headerFields: HTTPFields(), body: Data((0..<96).map { UInt8(255 - $0) })))
        ),
    ]
    for (name, (outboxEntry, body)) in entries {
        let file = [UInt8](OutboxEntryFormat.encode(outboxEntry, body: body))
        guard let back = OutboxEntryFormat.decode(Data(file)), back.entry == outboxEntry, back.body == body else {
            fatalError("OutboxEntryFuzz: seed \(name) does not read back")
        }
        // Raw mode: the file as it is; sealed mode: without the version line.
        let raw = Data([0]) + Data(file)
        let sealed = Data([1]) + Data(file[versionLine.count...])
        _ = FileManager.default.createFile(atPath: directory + "/raw-" + name, contents: raw)
        _ = FileManager.default.createFile(atPath: directory + "/sealed-" + name, contents: sealed)
    }
    exit(0)
}
