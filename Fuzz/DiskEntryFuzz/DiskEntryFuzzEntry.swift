import Foundation
import HTTPTypes

@testable import Courier
@testable import CourierCache

// libFuzzer entry for the disk cache's entry decoder (Courier's DiskEntryFormat, the real code
// compiled from Sources/Courier/Cache).
//
// Input: byte 0 bit 0 picks the mode.
// - 0, raw: the rest is an entry file exactly as read from disk (the magic line and the FNV-1a
//   checksum must be right, as for any damaged file).
// - 1, sealed: the rest is an entry's body; the harness adds the magic line in front and the
//   checksum behind (the layout's own rule, not the decoder's code), so the fuzzer explores what
//   lies behind the checksum — what a file written by someone else could hold.
// The key is the entry's own key text when it has one (so decoding gets past the key check).
// Checked: no crash; what decodes is self-consistent (inline bodies as long as their bytes, body
// file names that stay in the entry's directory); encoding what decoded and decoding that again
// gives the same entry (byte for byte on the second round); and a decoded entry can be used as the
// cache uses it — its head (switch: FUZZ_DISKENTRY_HEAD=0 skips `head`), its age and freshness.
//
// With FUZZ_WRITE_SEEDS=DIR set, it writes seed entries made by the real encoder into DIR and
// exits (Fuzz/fuzz-common.sh does this before each run).

private let magic = Array("COURIER-CACHE 3\n".utf8)

private func fnv(_ bytes: some Sequence<UInt8>) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
        hash ^= UInt64(byte)
        hash = hash &* 0x0000_0100_0000_01b3
    }
    return hash
}

private func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
    withUnsafeBytes(of: value.littleEndian) { Array($0) }
}

/// The key text at the start of an entry's body (`u32 length | UTF-8`), if there is one.
private func keyText(_ body: ArraySlice<UInt8>) -> String? {
    guard body.count >= 4 else { return nil }
    let start = body.startIndex
    let length = Int(body[start]) | Int(body[start + 1]) << 8 | Int(body[start + 2]) << 16 | Int(body[start + 3]) << 24
    guard length <= body.count - 4 else { return nil }
    return String(decoding: body[(start + 4)..<(start + 4 + length)], as: UTF8.self)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func diskEntryFuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = fuzzBytes(data, size)
    guard let mode = input.first else { return 0 }
    let file: [UInt8]
    let key: String
    if mode & 1 == 1 {
        let payload = magic + input.dropFirst()
        file = payload + littleEndian(fnv(payload))
        key = keyText(input.dropFirst()) ?? "k"
    } else {
        file = Array(input.dropFirst())
        key = file.count > magic.count ? keyText(file[magic.count...]) ?? "k" : "k"
    }
    let entryData = Data(file)
    guard let decoded = DiskEntryFormat.decode(entryData, key: key) else {
        // Also as a slice of a larger Data (the reader must honour startIndex).
        _ = DiskEntryFormat.decode((Data([0xAA]) + entryData).dropFirst(), key: key)
        return 0
    }
    if let again = DiskEntryFormat.decode((Data([0xAA, 0xBB]) + entryData).dropFirst(2), key: key), again.map(\.1) != decoded.map(\.1) {
        fuzzFailure("decoding a slice differs")
    }

    for (response, body) in decoded {
        switch body {
        case .inline(let bytes):
            guard response.body == bytes, response.bodyLength == bytes.count else { fuzzFailure("inline body and response differ") }
        case .file(let name, let length), .linked(let name, let length, _):
            guard length >= 0, !name.contains("/"), name != "..", DiskEntryFormat.isBodyFileName(name, key: key) else {
                fuzzFailure("body file \(name.debugDescription) (\(length) bytes) accepted for key \(key.debugDescription)")
            }
            if case .linked(_, _, let sha256) = body, sha256.utf8.count != 64 { fuzzFailure("linked body with a hash of \(sha256.utf8.count) bytes") }
        }
        use(response)
    }

    // Round trip: what decoded encodes to an entry that decodes the same, and is then stable.
    let first = DiskEntryFormat.encode(decoded.map(\.0), bodies: decoded.map(\.1), key: key)
    guard let redecoded = DiskEntryFormat.decode(first, key: key) else { fuzzFailure("re-encoded entry does not decode") }
    guard redecoded.count == decoded.count, redecoded.map(\.1) == decoded.map(\.1) else { fuzzFailure("re-encoded entry decodes differently") }
    for (a, b) in zip(decoded.map(\.0), redecoded.map(\.0)) {
        guard a.url == b.url, a.status == b.status, a.reason == b.reason, a.fields == b.fields, a.varyValues == b.varyValues,
            a.requestTime.timeIntervalSinceReferenceDate.bitPattern == b.requestTime.timeIntervalSinceReferenceDate.bitPattern,
            a.responseTime.timeIntervalSinceReferenceDate.bitPattern == b.responseTime.timeIntervalSinceReferenceDate.bitPattern
        else { fuzzFailure("round trip changed a variant: \(a) vs \(b)") }
    }
    let second = DiskEntryFormat.encode(redecoded.map(\.0), bodies: redecoded.map(\.1), key: key)
    guard second == first else { fuzzFailure("encoding is not stable") }
    return 0
}

/// What the cache does with a variant it read: serve its head, compute its age and freshness,
/// match it against a request.
private func use(_ response: CachedResponse) {
    if fuzzCheck("DISKENTRY_HEAD") {
        _ = response.head
    } else if (0...999).contains(response.status) {
        _ = response.head
    }
    _ = response.headerFields
    for now in [Date(timeIntervalSinceReferenceDate: 0), Date(timeIntervalSince1970: 1_750_000_000)] {
        let age = response.age(at: now)
        // Served as `Int(min(age, 2³¹).rounded(.down))`: NaN or -∞ would trap there.
        guard age >= 0, !age.isNaN else { fuzzFailure("age \(age) of a decoded entry (times \(response.requestTime), \(response.responseTime))") }
        _ = response.isFresh(at: now)
    }
    _ = response.varyNames
    _ = response.matches(HTTPFields())
    _ = response.cost
}

// MARK: - Seeds

@_cdecl("LLVMFuzzerInitialize")
public func diskEntryFuzzInitialize(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
    guard let directory = ProcessInfo.processInfo.environment["FUZZ_WRITE_SEEDS"] else { return 0 }
    let now = Date(timeIntervalSinceReferenceDate: 770_000_000)
    func variant(_ url: String, status: Int = 200, reason: String = "OK", fields: [(String, String)], body: String, vary: [String: String] = [:])
        -> CachedResponse
    {
        CachedResponse(
            url: url, status: status, reason: reason, fields: fields.map { CachedResponse.Field(name: $0.0, value: $0.1) },
            body: Data(body.utf8), requestTime: now.addingTimeInterval(-0.25), responseTime: now, varyValues: vary)
    }
    let key = "https://api.example.com/v1/items?page=1"
    let fileName = DiskEntryFormat.hashName(for: key) + "-00112233445566ff." + DiskEntryFormat.bodyExtension
    let entries: [(String, [CachedResponse], [DiskEntryFormat.Body])] = [
        (
            "plain",
            [variant(key, fields: [("Content-Type", "application/json"), ("Cache-Control", "max-age=60"), ("ETag", "\"v1\"")], body: #"{"id":1}"#)],
            [.inline(Data(#"{"id":1}"#.utf8))]
        ),
        ("empty", [variant(key, status: 204, reason: "No Content", fields: [], body: "")], [.inline(Data())]),
        (
            "file", [variant(key, fields: [("Content-Length", "1048576"), ("Last-Modified", "Sun, 06 Nov 1994 08:49:37 GMT")], body: "")],
            [.file(name: fileName, length: 1_048_576)]
        ),
        (
            "linked", [variant(key, fields: [("Content-Length", "1048576"), ("ETag", "\"d1\"")], body: "")],
            [.linked(name: fileName, length: 1_048_576, sha256: String(repeating: "ab", count: 32))]
        ),
        (
            "vary",
            [
                variant(
                    key, fields: [("Vary", "Accept-Language, Accept-Encoding"), ("Content-Language", "ko")], body: "안녕하세요",
                    vary: ["accept-language": "ko-kr,ko", "accept-encoding": "gzip"]),
                variant(
                    key, fields: [("Vary", "Accept-Language"), ("Age", "12"), ("Date", "Sun, 06 Nov 1994 08:49:37 GMT")], body: "hello",
                    vary: ["accept-language": "en"]),
            ], [.inline(Data("안녕하세요".utf8)), .inline(Data("hello".utf8))]
        ),
        (
            "hostile", [variant(key, status: 999, reason: "\r\nX: y", fields: [("X-\u{1b}]52", "\u{0}\u{7f}"), ("", "")], body: "\u{1b}[2J")],
            [.inline(Data("\u{1b}[2J".utf8))]
        ),
    ]
    for (name, variants, bodies) in entries {
        let file = [UInt8](DiskEntryFormat.encode(variants, bodies: bodies, key: key))
        // Raw mode: the file as it is; sealed mode: without magic and checksum.
        let raw = Data([0]) + Data(file)
        let sealed = Data([1]) + Data(file[magic.count..<(file.count - 8)])
        _ = FileManager.default.createFile(atPath: directory + "/raw-" + name, contents: raw)
        _ = FileManager.default.createFile(atPath: directory + "/sealed-" + name, contents: sealed)
    }
    exit(0)
}
