import Foundation

/// The Strings of one answer's repeated field values, each made once: a place, a fee, who may
/// attend, performers, opening hours come back row after row, and a String of more than 15
/// bytes is a heap object — made, checked, copied, and later freed for every row it is in.
/// Equal text shares one String; nothing about the values changes.
struct SharedTexts {
    private struct Entry {
        var hash: UInt64
        var text: String
    }

    /// Open addressing; at most half full, after which new values are made but not kept.
    private var entries = [Entry?](repeating: nil, count: 512)
    private var count = 0

    /// The String of `raw`: the one made before for the same bytes, or `make(raw)`.
    mutating func text<E: Error>(_ raw: UnsafeRawBufferPointer, make: (UnsafeRawBufferPointer) throws(E) -> String) throws(E) -> String {
        let hash = Self.hash(raw)
        let mask = entries.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while let entry = entries[slot] {
            if entry.hash == hash, Self.same(entry.text, raw) { return entry.text }
            slot = (slot + 1) & mask
        }
        let text = try make(raw)
        if count < entries.count / 2 {
            entries[slot] = Entry(hash: hash, text: text)
            count += 1
        }
        return text
    }

    private static func same(_ text: String, _ raw: UnsafeRawBufferPointer) -> Bool {
        text.utf8.count == raw.count
            && text.utf8.withContiguousStorageIfAvailable { utf8 in
                guard let a = utf8.baseAddress, let b = raw.baseAddress else { return raw.isEmpty }
                return memcmp(a, b, raw.count) == 0
            } == true
    }

    /// FNV-1a over eight bytes at a time (then the rest one by one): only for this table.
    private static func hash(_ raw: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        guard let base = raw.baseAddress else { return hash }
        var offset = 0
        while offset + 8 <= raw.count {
            hash = (hash ^ base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0x100_0000_01b3
            offset += 8
        }
        while offset < raw.count {
            hash = (hash ^ UInt64(raw[offset])) &* 0x100_0000_01b3
            offset += 1
        }
        return hash ^ (hash >> 29)
    }
}
