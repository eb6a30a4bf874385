/// The FNV-1a hash behind ``CulturalProgram/stableID(for:)``, fed part by part: from a row's
/// Strings, or straight from the answer's bytes by the JSON scanner — the same bytes give the
/// same id either way.
struct StableID {
    private var hash: UInt64 = 0xcbf2_9ce4_8422_2325

    /// Adds `part`'s UTF-8 bytes, then a separator.
    mutating func mix(_ part: UnsafeRawBufferPointer) {
        var hash = self.hash
        for byte in part {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        hash ^= 0x1f
        hash &*= 0x100_0000_01b3
        self.hash = hash
    }

    /// Adds `part`: over contiguous UTF-8 (`withUTF8`), as walking `String.UTF8View` index by
    /// index made this hash the largest single cost of building a program.
    mutating func mix(_ part: String) {
        var part = part
        part.withUTF8 { mix(UnsafeRawBufferPointer($0)) }
    }

    /// The low 48 bits as 12 lower-case hex digits.
    var text: String {
        let digits: StaticString = "0123456789abcdef"
        return String(unsafeUninitializedCapacity: 12) { buffer in
            var value = hash
            for index in (0..<12).reversed() {
                buffer[index] = digits.utf8Start[Int(value & 0xF)]
                value >>= 4
            }
            return 12
        }
    }
}
