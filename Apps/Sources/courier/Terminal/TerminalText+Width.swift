extension TerminalText {
    /// One piece of text as a terminal advances over it: a grapheme cluster, or one of the CLI's
    /// own escape sequences (no cells).
    struct Unit {
        let text: Substring
        let cells: Int
        /// A space: where a line may break.
        var isSpace: Bool { text == " " }
    }

    /// Cells `text` takes on a terminal: East Asian wide and fullwidth characters (Hangul,
    /// CJK, kana, fullwidth forms) and emoji take two, combining marks and other zero-width
    /// characters none, every other grapheme cluster one. Escape sequences take none — outside
    /// text has none left once ``escaped(_:)``, so they are the CLI's own (colours, OSC 8 links).
    ///
    /// Counting `Character`s is not enough: `"한국어"` is 3 characters but 6 cells, `"e\u{301}"`
    /// 2 scalars but 1 cell, and a family emoji 7 scalars, 1 character, 2 cells.
    static func width(_ text: some StringProtocol) -> Int {
        units(text).reduce(0) { $0 + $1.cells }
    }

    /// Cells one grapheme cluster takes, judged by its first scalar (a cluster is a base and
    /// what combines with it; the marks, joiners and selectors after the base add nothing).
    static func width(of character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        let properties = first.properties
        if first.value < 0x20 || (0x7F...0x9F).contains(first.value) { return 0 }
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        // Hangul medial vowels and final consonants: alone they join the syllable before.
        if (0x1160...0x11FF).contains(first.value) || (0xD7B0...0xD7FF).contains(first.value) { return 0 }
        if properties.isEmojiPresentation { return 2 }
        // A text-style emoji made emoji-style by VS16 (❤️, 1️⃣) is drawn two cells wide.
        if properties.isEmoji, scalars.contains("\u{FE0F}") { return 2 }
        return isWide(first) ? 2 : 1
    }

    /// Whether `scalar` is East Asian Wide or Fullwidth (Unicode's EastAsianWidth.txt, W and F;
    /// the emoji among them are caught by `isEmojiPresentation` first).
    static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        guard value >= 0x1100 else { return false }
        var low = 0
        var high = wideRanges.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let range = wideRanges[middle]
            if value < range.lowerBound {
                high = middle - 1
            } else if value > range.upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }

    /// Wide and fullwidth blocks, sorted. Ambiguous-width characters (`·`, `…`, `•`) count one
    /// cell, as tmux and most terminals draw them outside CJK locales.
    static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F,  // Hangul Jamo initial consonants
        0x2329...0x232A,  // angle brackets
        0x2E80...0x303E,  // CJK radicals, Kangxi, ideographic description, CJK symbols and punctuation
        0x3041...0x3247,  // Hiragana, Katakana, Bopomofo, Hangul compatibility Jamo, Kanbun, CJK strokes, enclosed
        0x3250...0x4DBF,  // enclosed CJK, compatibility, CJK extension A
        0x4E00...0xA4CF,  // CJK unified ideographs, Yi
        0xA960...0xA97F,  // Hangul Jamo extended A
        0xAC00...0xD7A3,  // Hangul syllables
        0xF900...0xFAFF,  // CJK compatibility ideographs
        0xFE10...0xFE19,  // vertical forms
        0xFE30...0xFE6F,  // CJK compatibility forms, small form variants
        0xFF00...0xFF60,  // fullwidth forms
        0xFFE0...0xFFE6,  // fullwidth signs
        0x16FE0...0x16FE4,  // ideographic symbols
        0x17000...0x18CFF,  // Tangut, Khitan
        0x1AFF0...0x1B2FF,  // Kana extended, supplement, Nushu
        0x1F200...0x1F2FF,  // enclosed ideographic supplement
        0x20000...0x2FFFD,  // CJK extensions B–F
        0x30000...0x3FFFD,  // CJK extension G and on
    ]

    /// `text` as the terminal advances over it: grapheme clusters with their cells, and escape
    /// sequences kept whole (CSI up to its final byte; OSC, DCS, APC, PM and SOS up to BEL or
    /// `ESC \`) with none, so neither measuring nor wrapping cuts one.
    static func units(_ text: some StringProtocol) -> [Unit] {
        let characters = Substring(text)
        var units: [Unit] = []
        var index = characters.startIndex
        while index < characters.endIndex {
            let character = characters[index]
            var next = characters.index(after: index)
            guard character == "\u{1B}", next < characters.endIndex else {
                units.append(Unit(text: characters[index..<next], cells: width(of: character)))
                index = next
                continue
            }
            let kind = characters[next]
            next = characters.index(after: next)
            if kind == "[" {
                while next < characters.endIndex {
                    let value = characters[next].unicodeScalars.first?.value ?? 0
                    next = characters.index(after: next)
                    if (0x40...0x7E).contains(value) { break }
                }
            } else if ["]", "P", "_", "^", "X"].contains(kind) {
                while next < characters.endIndex {
                    let current = characters[next]
                    next = characters.index(after: next)
                    if current == "\u{07}" { break }
                    if current == "\u{1B}", next < characters.endIndex, characters[next] == "\\" {
                        next = characters.index(after: next)
                        break
                    }
                }
            }
            units.append(Unit(text: characters[index..<next], cells: 0))
            index = next
        }
        return units
    }

    /// `text` padded with spaces on the left to `cells` cells (right-aligned), measured in cells.
    static func leftPadded(_ text: String, to cells: Int) -> String {
        let missing = cells - width(text)
        return missing > 0 ? String(repeating: " ", count: missing) + text : text
    }

    /// `text` padded with spaces on the right to `cells` cells (left-aligned), measured in cells.
    static func rightPadded(_ text: String, to cells: Int) -> String {
        let missing = cells - width(text)
        return missing > 0 ? text + String(repeating: " ", count: missing) : text
    }
}
