import Courier
import CourierTransportCore
import Foundation

/// The bytes of one disk cache entry: a magic line, the key, each variant's metadata and body (or
/// the name of the file its body is in) in a compact binary layout, and a checksum over
/// everything before it — so a truncated or damaged file is recognised, never misread. (Version 1
/// kept the metadata as JSON; decoding it took most of a disk hit. Version 2 kept every body
/// inline, so a 304 rewrote a whole large body to update its header fields. A file of another
/// version is a miss.)
///
/// ```
/// "COURIER-CACHE 3\n" | text key | u32 count | count × variant | u64 FNV-1a
/// variant: text url | u16 status | text reason | f64 requestTime | f64 responseTime
///          | u32 n | n × (text name, text value) | u32 m | m × (text name, text value) | body
/// body: u8 0 | u64 length | bytes          (inline)
///     | u8 1 | u64 length | text file name (a body file "<entry hash>-<16 hex>.body" beside it)
///     | u8 2 | u64 length | text file name | text SHA-256 hex
///                                          (a body file that is a hard link to a downloaded file:
///                                           checked against the hash before it is served)
/// text: u32 length | UTF-8;  integers little-endian;  times in seconds since 2001 (Foundation's reference date: exact round trip)
/// ```
enum DiskEntryFormat {
    static let magic = Data("COURIER-CACHE 3\n".utf8)
    static let fileExtension = "entry"
    static let bodyExtension = "body"
    /// Characters of the hash that starts every file name of one entry.
    static let hashLength = 32

    /// Where a variant's body is on disk.
    enum Body: Equatable {
        /// In the entry file.
        case inline(Data)
        /// In the body file of that name, `length` bytes long.
        case file(name: String, length: Int)
        /// In the body file of that name, a hard link to a file a download wrote (so its owner may
        /// change it): served only while its bytes still have this SHA-256 (64 hex digits).
        case linked(name: String, length: Int, sha256: String)

        /// The body file's name and length, when the body is in one.
        var file: (name: String, length: Int)? {
            switch self {
            case .inline: nil
            case .file(let name, let length), .linked(let name, let length, _): (name, length)
            }
        }
    }

    /// A file name from `key`: 128 bits of two FNV-1a hashes, hex.
    static func fileName(for key: String) -> String {
        hashName(for: key) + "." + fileExtension
    }

    /// The 32 hex digits every file of `key`'s entry starts with.
    static func hashName(for key: String) -> String {
        let bytes = Array(key.utf8)
        return hex(fnv(bytes, seed: 0xcbf2_9ce4_8422_2325)) + hex(fnv(bytes, seed: 0x8422_2325_cbf2_9ce4))
    }

    /// A new body file name for `key`'s entry.
    static func bodyFileName(for key: String) -> String {
        hashName(for: key) + "-" + hex(UInt64.random(in: .min ... .max)) + "." + bodyExtension
    }

    /// The entry's bytes: each variant with its body where `bodies` says.
    static func encode(_ variants: [CachedResponse], bodies: [Body], key: String) -> Data {
        var data = magic
        data.reserveCapacity(
            variants.reduce(256) { $0 + $1.cost - $1.bodyLength + 64 }
                + bodies.reduce(0) {
                    if case .inline(let bytes) = $1 { $0 + bytes.count } else { $0 }
                })
        appendText(key, to: &data)
        append(UInt32(variants.count), to: &data)
        for (variant, body) in zip(variants, bodies) {
            appendText(variant.url, to: &data)
            append(UInt16(clamping: variant.status), to: &data)
            appendText(variant.reason, to: &data)
            append(variant.requestTime.timeIntervalSinceReferenceDate.bitPattern, to: &data)
            append(variant.responseTime.timeIntervalSinceReferenceDate.bitPattern, to: &data)
            append(UInt32(variant.fields.count), to: &data)
            for field in variant.fields {
                appendText(field.name, to: &data)
                appendText(field.value, to: &data)
            }
            let vary = variant.varyValues.sorted { $0.key < $1.key }
            append(UInt32(vary.count), to: &data)
            for (name, value) in vary {
                appendText(name, to: &data)
                appendText(value, to: &data)
            }
            switch body {
            case .inline(let bytes):
                data.append(0)
                append(UInt64(bytes.count), to: &data)
                data.append(bytes)
            case .file(let name, let length):
                data.append(1)
                append(UInt64(length), to: &data)
                appendText(name, to: &data)
            case .linked(let name, let length, let sha256):
                data.append(2)
                append(UInt64(length), to: &data)
                appendText(name, to: &data)
                appendText(sha256, to: &data)
            }
        }
        append(fnv(data, seed: 0xcbf2_9ce4_8422_2325), to: &data)
        return data
    }

    /// The variants in `data` (each with an empty body) and where their bodies are, or nil unless
    /// it is a whole, undamaged entry for `key`.
    static func decode(_ data: Data, key: String) -> [(CachedResponse, Body)]? {
        guard data.count >= magic.count + 16, data.prefix(magic.count) == magic else { return nil }
        let payload = data.prefix(data.count - 8)
        var reader = Reader(data: payload, offset: magic.count)
        var tail = Reader(data: data, offset: data.count - 8)
        guard let checksum = tail.integer(UInt64.self),
            checksum == fnv(payload, seed: 0xcbf2_9ce4_8422_2325),
            reader.text() == key, let count = reader.integer(UInt32.self)
        else { return nil }
        var variants: [(CachedResponse, Body)] = []
        for _ in 0..<count {
            // A status outside 100…999 is no HTTP status (and HTTPResponse.Status traps past 999):
            // a crafted or damaged entry whose checksum happens to hold is a miss, not a crash.
            guard let url = reader.text(), let status = reader.integer(UInt16.self), (100...999).contains(status), let reason = reader.text(),
                let requested = reader.integer(UInt64.self), let received = reader.integer(UInt64.self),
                let fields = reader.pairs(), let vary = reader.pairs(),
                let kind = reader.integer(UInt8.self), let length = reader.integer(UInt64.self)
            else { return nil }
            let body: Body
            switch kind {
            case 0:
                guard let bytes = reader.bytes(Int(clamping: length)) else { return nil }
                body = .inline(bytes)
            case 1:
                guard let name = reader.text(), isBodyFileName(name, key: key) else { return nil }
                body = .file(name: name, length: Int(clamping: length))
            case 2:
                guard let name = reader.text(), isBodyFileName(name, key: key), let sha256 = reader.text(), sha256.utf8.count == 64
                else { return nil }
                body = .linked(name: name, length: Int(clamping: length), sha256: sha256)
            default: return nil
            }
            let content: CachedResponse.Content = if case .inline(let bytes) = body { .data(bytes) } else { .data(Data()) }
            variants.append(
                (
                    CachedResponse(
                        url: url, status: Int(status), reason: reason, fields: fields.map { CachedResponse.Field(name: $0.0, value: $0.1) },
                        content: content,
                        requestTime: Date(timeIntervalSinceReferenceDate: Double(bitPattern: requested)),
                        responseTime: Date(timeIntervalSinceReferenceDate: Double(bitPattern: received)),
                        varyValues: Dictionary(vary, uniquingKeysWith: { first, _ in first })), body
                ))
        }
        return reader.offset == payload.count ? variants : nil
    }

    /// Whether `name` is a body file name of `key`'s entry (never a path elsewhere).
    static func isBodyFileName(_ name: String, key: String) -> Bool {
        let hash = hashName(for: key)
        return name.hasPrefix(hash + "-") && name.hasSuffix("." + bodyExtension) && !name.contains("/")
    }

    /// Reads the layout's values from `data` (a `Data` that may be a slice), failing past the end.
    struct Reader {
        let data: Data
        var offset: Int

        mutating func bytes(_ length: Int) -> Data? {
            range(length).map { Data(data[$0]) }
        }

        /// The indices of the next `length` bytes, which it moves past.
        mutating func range(_ length: Int) -> Range<Data.Index>? {
            guard length >= 0, offset >= 0, offset <= data.count - length else { return nil }
            let start = data.startIndex + offset
            offset += length
            return start..<(start + length)
        }

        mutating func integer<T: FixedWidthInteger>(_ type: T.Type) -> T? {
            let size = MemoryLayout<T>.size
            guard offset >= 0, offset <= data.count - size else { return nil }
            let start = data.startIndex + offset
            offset += size
            return T(littleEndian: data[start..<(start + size)].withUnsafeBytes { $0.loadUnaligned(as: T.self) })
        }

        mutating func text() -> String? {
            guard let length = integer(UInt32.self), let range = range(Int(length)) else { return nil }
            let bytes = data[range]
            // The checksum vouches for the bytes: decoding cannot meet invalid UTF-8 it did not write.
            return String(decoding: bytes, as: UTF8.self)
        }

        /// A count, then that many pairs of texts.
        mutating func pairs() -> [(String, String)]? {
            guard let count = integer(UInt32.self), Int(count) <= data.count - offset else { return nil }
            var result: [(String, String)] = []
            result.reserveCapacity(Int(count))
            for _ in 0..<count {
                guard let name = text(), let value = text() else { return nil }
                result.append((name, value))
            }
            return result
        }
    }

    private static func appendText(_ text: String, to data: inout Data) {
        let bytes = Array(text.utf8)
        append(UInt32(bytes.count), to: &data)
        data.append(contentsOf: bytes)
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to data: inout Data) {
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }

    private static func fnv(_ data: Data, seed: UInt64) -> UInt64 {
        data.withUnsafeBytes { fnv($0, seed: seed) }
    }

    private static func fnv(_ bytes: some Sequence<UInt8>, seed: UInt64) -> UInt64 {
        var hash = seed
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
