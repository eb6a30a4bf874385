extension TerminalText {
    /// `text` as lines of at most `width` cells for a terminal `width` columns wide.
    ///
    /// The first line starts with `indent`, every other line (a wrapped continuation or the next
    /// line of `text`) with `continuation` (default: `indent`), so a paragraph keeps its indent
    /// — and a bullet its hanging indent — instead of running back to column 0 as the terminal's
    /// own wrap does. Lines break at spaces, measured in cells (``width(_:)``), so Hangul and
    /// other wide text is not cut mid-word; runs of spaces between words become one. A word
    /// wider than a whole line is broken between grapheme clusters, never inside one or inside an
    /// escape sequence. An empty line of `text` stays empty (no trailing indent).
    ///
    /// ```swift
    /// TerminalText.wrap("가나다 라마바 사아", width: 10, indent: "  ")   // ["  가나다", "  라마바", "  사아"]
    /// ```
    static func wrap(_ text: some StringProtocol, width: Int, indent: String = "", continuation: String? = nil) -> [String] {
        var wrapper = Wrapper(width: width, indent: indent, continuation: continuation ?? indent)
        for paragraph in Substring(text).split(separator: "\n", omittingEmptySubsequences: false) {
            wrapper.add(paragraph)
        }
        return wrapper.lines
    }

    /// Greedy line filling, one paragraph (a line of the input) at a time.
    private struct Wrapper {
        let width: Int
        let indent: String
        let continuation: String
        var lines: [String] = []
        private var line = ""
        private var cells = 0
        /// Whether `line` holds more than its indent.
        private var hasContent = false

        init(width: Int, indent: String, continuation: String) {
            self.width = width
            self.indent = indent
            self.continuation = continuation
        }

        mutating func add(_ paragraph: Substring) {
            let words = paragraph.split(separator: " ")
            guard !words.isEmpty else {
                lines.append("")
                return
            }
            start()
            for word in words {
                let wordCells = TerminalText.width(word)
                if hasContent, cells + 1 + wordCells <= width {
                    line += " " + word
                    cells += 1 + wordCells
                    continue
                }
                if hasContent { start() }
                if cells + wordCells <= width {
                    line += word
                    cells += wordCells
                    hasContent = true
                } else {
                    breakLong(word)
                }
            }
            end()
        }

        /// A word wider than a line: as many clusters as fit on each line.
        private mutating func breakLong(_ word: Substring) {
            for unit in TerminalText.units(word) {
                // A line always takes at least one cluster, so a width below the indent still ends.
                if hasContent, cells + unit.cells > width { start() }
                line += unit.text
                cells += unit.cells
                hasContent = hasContent || unit.cells > 0
            }
        }

        /// Ends the line being filled (if any) and starts the next with its indent.
        private mutating func start() {
            end()
            line = lines.isEmpty ? indent : continuation
            cells = TerminalText.width(line)
        }

        private mutating func end() {
            if hasContent { lines.append(line) }
            line = ""
            cells = 0
            hasContent = false
        }
    }
}
