import Foundation

/// The bytes of one disk cache entry: a magic line, the key, the variants' metadata as JSON (bodies
/// left out), the bodies one after another, and a checksum over everything before it — so a
/// truncated or damaged file is recognised, never misread.
///
/// ```
/// "COURIER-CACHE 1\n" | u32 key length | key | u32 metadata length | metadata JSON | bodies | u64 FNV-1a
/// ```
enum DiskEntryFormat {
    static let magic = Data("COURIER-CACHE 1\n".utf8)
    static let fileExtension = "entry"

    /// A file name from `key`: 128 bits of two FNV-1a hashes, hex.
    static func fileName(for key: String) -> String {
        let bytes = Array(key.utf8)
        return hex(fnv(bytes, seed: 0xcbf2_9ce4_8422_2325)) + hex(fnv(bytes, seed: 0x8422_2325_cbf2_9ce4)) + "." + fileExtension
    }

    static func encode(_ variants: [CachedResponse], key: String) -> Data {
        var data = magic
        let keyBytes = Data(key.utf8)
        let metadata = (try? JSONEncoder().encode(variants.map { variant -> CachedResponse in
            var copy = variant
            copy.body = Data()
            return copy
        })) ?? Data("[]".utf8)
        append(UInt32(keyBytes.count), to: &data)
        data.append(keyBytes)
        append(UInt32(metadata.count), to: &data)
        data.append(metadata)
        for variant in variants {
            append(UInt64(variant.body.count), to: &data)
            data.append(variant.body)
        }
        append(fnv(data, seed: 0xcbf2_9ce4_8422_2325), to: &data)
        return data
    }

    /// The variants in `data`, or nil unless it is a whole, undamaged entry for `key`.
    static func decode(_ data: Data, key: String) -> [CachedResponse]? {
        guard data.count >= magic.count + 16, data.prefix(magic.count) == magic else { return nil }
        let payload = data.prefix(data.count - 8)
        guard let checksum = read(UInt64.self, data, at: data.count - 8), checksum == fnv(payload, seed: 0xcbf2_9ce4_8422_2325) else { return nil }
        var offset = magic.count
        guard let keyLength = read(UInt32.self, payload, at: offset).map(Int.init),
            let keyBytes = slice(payload, offset + 4, keyLength), keyBytes == Data(key.utf8)
        else { return nil }
        offset += 4 + keyLength
        guard let metadataLength = read(UInt32.self, payload, at: offset).map(Int.init),
            let metadata = slice(payload, offset + 4, metadataLength),
            var variants = try? JSONDecoder().decode([CachedResponse].self, from: metadata)
        else { return nil }
        offset += 4 + metadataLength
        for index in variants.indices {
            guard let length = read(UInt64.self, payload, at: offset).map(Int.init), let body = slice(payload, offset + 8, length) else { return nil }
            variants[index].body = body
            offset += 8 + length
        }
        return offset == payload.count ? variants : nil
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to data: inout Data) {
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }

    private static func read<T: FixedWidthInteger>(_ type: T.Type, _ data: Data, at offset: Int) -> T? {
        guard let bytes = slice(data, offset, MemoryLayout<T>.size) else { return nil }
        return T(littleEndian: bytes.withUnsafeBytes { $0.loadUnaligned(as: T.self) })
    }

    /// `length` bytes from `offset` (relative to the start), or nil past the end.
    private static func slice(_ data: Data, _ offset: Int, _ length: Int) -> Data? {
        guard offset >= 0, length >= 0, offset <= data.count - length else { return nil }
        let start = data.startIndex + offset
        return Data(data[start..<(start + length)])
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
