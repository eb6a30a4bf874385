extension HTMLText {
    /// Collects text into paragraphs while ``HTMLText/plainText(_:)`` walks the HTML.
    struct Renderer {
        private var blocks: [String] = []
        private var current = ""
        private var inPre = false
        private var pendingSpace = false
        /// Open links: the address and where the link text starts in `current`.
        private var links: [(href: String?, start: Int)] = []

        mutating func apply(_ tag: Tag) {
            switch (tag.name, tag.isClosing) {
            case ("p", _):
                if !inPre { endBlock() }
            case ("pre", false):
                endBlock()
                inPre = true
            case ("pre", true):
                endBlock()
                inPre = false
            case ("br", _):
                current.append("\n")
                pendingSpace = false
            case ("a", false):
                flushSpace()
                links.append((tag.href, current.utf8.count))
            case ("a", true):
                closeLink()
            default:
                break  // <i>, <b>, <code> and unknown tags: keep the text, drop the tag
            }
        }

        mutating func append(_ character: Character) {
            if inPre {
                current.append(character)
            } else if character.isWhitespace {
                pendingSpace = !current.isEmpty
            } else {
                flushSpace()
                current.append(character)
            }
        }

        mutating func finish() -> String {
            while !links.isEmpty { closeLink() }
            endBlock()
            return blocks.joined(separator: "\n\n")
        }

        private mutating func flushSpace() {
            if pendingSpace, !current.isEmpty { current.append(" ") }
            pendingSpace = false
        }

        /// Ends a paragraph or a `<pre>` block; an empty one leaves nothing.
        private mutating func endBlock() {
            while !links.isEmpty { closeLink() }
            var block = current
            if inPre {
                // HN's blocks start and end with a line break around the code; keep inner indentation.
                while block.first == "\n" { block.removeFirst() }
                while let last = block.last, last.isWhitespace { block.removeLast() }
            } else {
                block = block.trimmingSpaces()
            }
            if !block.isEmpty { blocks.append(block) }
            current = ""
            pendingSpace = false
        }

        /// Turns the open link's text into its address, or `text (address)`.
        private mutating func closeLink() {
            guard let (href, offset) = links.popLast() else { return }
            guard let href, !href.isEmpty else { return }
            let start = current.utf8.index(current.startIndex, offsetBy: min(offset, current.utf8.count))
            let text = String(current[start...])
            current.removeSubrange(start...)
            current.append(Self.linkText(text, href: href))
        }

        /// HN shows long addresses shortened with `...`: such a text, or the address itself,
        /// becomes the address.
        static func linkText(_ text: String, href: String) -> String {
            var shown = text.trimmingSpaces()
            if shown.isEmpty { return href }
            if shown.hasSuffix("...") { shown.removeLast(3) }
            if href.hasPrefix(shown) || href.hasPrefix("https://" + shown) || href.hasPrefix("http://" + shown) { return href }
            return "\(text) (\(href))"
        }
    }
}

extension String {
    /// Without leading and trailing spaces and line breaks.
    func trimmingSpaces() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[first...last])
    }
}
