import Foundation

/// "The text anywhere in the title, ignoring case": exactly what Foundation's
/// `range(of:options: .caseInsensitive)` answers, but without it for the usual titles and
/// searches (it costs about a microsecond a title on Linux — most of a search over the list).
///
/// A byte search over UTF-8, ASCII letters folded, decides when it can: when the search text is
/// plain (ASCII, Hangul syllables, CJK punctuation and symbols — no other cased letters, no
/// decomposed or combining characters), a byte match is a match, and a miss is a miss for a
/// plain title. Other search texts (`É`, decomposed Hangul) and other titles (the Kelvin sign
/// folds to `k`, jamo compose to syllables) are left to Foundation.
struct TitleSearch: Sendable, Equatable {
    let text: String
    private let needle: [UInt8]
    private let usesFoundation: Bool

    init(_ text: String) {
        self.text = text
        // ASCII bytes never occur inside a multi-byte UTF-8 sequence: folding them is safe.
        needle = text.utf8.map(Self.lowercasedASCII)
        // A plain search text has no cased letters but ASCII ones (folded here) and no
        // decomposed or combining characters (which Foundation matches to composed ones).
        usesFoundation = !Self.isPlain(text)
    }

    /// Whether `title` contains the text, ignoring case.
    func matches(_ title: String) -> Bool {
        if usesFoundation || needle.isEmpty { return foundationMatches(title) }
        var title = title
        let found = title.withUTF8 { Self.find(needle, in: $0) }
        if found { return true }
        return Self.isPlain(title) ? false : foundationMatches(title)
    }

    private func foundationMatches(_ title: String) -> Bool {
        text.isEmpty || title.range(of: text, options: [.caseInsensitive]) != nil
    }

    private static func lowercasedASCII(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }

    /// Whether `needle` (folded) occurs in `haystack`, its ASCII letters folded.
    private static func find(_ needle: [UInt8], in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = needle.count
        guard haystack.count >= count else { return false }
        let first = needle[0]
        for start in 0...(haystack.count - count) {
            let byte = lowercasedASCII(haystack[start])
            guard byte == first else { continue }
            var index = 1
            while index < count {
                let next = lowercasedASCII(haystack[start + index])
                if next != needle[index] { break }
                index += 1
            }
            if index == count { return true }
        }
        return false
    }

    /// Every character is one that a case-insensitive, canonical-equivalence comparison matches
    /// only byte for byte: ASCII, Latin-1 punctuation and symbols, Hangul syllables, general
    /// punctuation, box drawing and shapes, dingbats, CJK symbols and punctuation, full-width
    /// forms other than letters — none cased beyond ASCII, none with a canonical decomposition
    /// (as U+2000, U+2329 or ≠ have), none combining. Such text is in NFC, so its UTF-8 byte
    /// order is also `String`'s order.
    static func isPlain(_ text: String) -> Bool {
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0..<0x80, 0xA0...0xB4, 0xB6...0xBF, 0xD7, 0xF7: continue  // not µ (folds to Greek)
            case 0xAC00...0xD7A3: continue  // Hangul syllables (precomposed)
            case 0x2002...0x206F, 0x2500...0x27BF: continue
            case 0x3000...0x3029, 0x3030...0x303F: continue  // not the combining tone marks
            case 0xFF01...0xFF20, 0xFF3B...0xFF40, 0xFF5B...0xFFEF: continue
            default: return false
            }
        }
        return true
    }
}
