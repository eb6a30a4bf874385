/// Checks that bytes are well-formed UTF-8 (Unicode Table 3-7: no overlong forms, no
/// surrogates, nothing past U+10FFFF) — exactly when `String(decoding:as: UTF8.self)` keeps
/// them unchanged — without making a `String`, runs of ASCII eight bytes at a time.
enum UTF8Validator {
    /// Whether `bytes` are well-formed UTF-8.
    static func isValid(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { isValid($0) }
    }

    /// Whether `buffer` holds well-formed UTF-8.
    static func isValid(_ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = buffer.baseAddress else { return true }
        let count = buffer.count
        let raw = UnsafeRawPointer(base)
        var index = 0
        while index < count {
            let lead = base[index]
            if lead < 0x80 {
                index += 1
                // A run of ASCII, eight bytes at once.
                while index + 8 <= count, raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                    index += 8
                }
                continue
            }
            if lead < 0xE0 {
                // C2...DF, one continuation byte (80...C1 cannot begin a character).
                guard lead >= 0xC2, index + 1 < count, base[index + 1] & 0xC0 == 0x80 else { return false }
                index += 2
                continue
            }
            if lead < 0xF0 {
                // Most non-ASCII text (Hangul, CJK): E1...EC 80...BF 80...BF, checked as one word.
                if index + 4 <= count {
                    let word = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt32.self))
                    if word & 0x00C0_C0F0 == 0x0080_80E0, lead != 0xE0, lead != 0xED {
                        index += 3
                        continue
                    }
                }
                // E0 A0...BF, E1...EC and EE...EF 80...BF, ED 80...9F (no surrogates); then 80...BF.
                guard index + 2 < count else { return false }
                let second = base[index + 1]
                guard second & 0xC0 == 0x80, base[index + 2] & 0xC0 == 0x80 else { return false }
                if lead == 0xE0 && second < 0xA0 || lead == 0xED && second > 0x9F { return false }
                index += 3
                continue
            }
            // F0 90...BF, F1...F3 80...BF, F4 80...8F (at most U+10FFFF); then 80...BF twice.
            guard lead <= 0xF4, index + 3 < count else { return false }
            let second = base[index + 1]
            guard second & 0xC0 == 0x80, base[index + 2] & 0xC0 == 0x80, base[index + 3] & 0xC0 == 0x80 else { return false }
            if lead == 0xF0 && second < 0x90 || lead == 0xF4 && second > 0x8F { return false }
            index += 4
        }
        return true
    }
}
