import Foundation

/// Hacker News' HTML (the `text` of items, a user's `about`) as plain text.
///
/// HN's HTML is small: `<p>` between paragraphs (rarely closed), `<a href>` links, `<i>`,
/// `<pre><code>` blocks with literal line breaks, and entities (`&#x27;`, `&#x2F;`, `&quot;`,
/// `&amp;`, `&lt;`, `&gt;`, numeric ones). The conversion:
/// - paragraphs are separated by a blank line (`"\n\n"`); other whitespace collapses to one space;
/// - a `<pre>` block keeps its lines and indentation, as a paragraph of its own;
/// - a link whose text is its address (HN shortens long ones with `...`) becomes the address;
///   any other link becomes `text (address)`;
/// - `<i>`, `<b>`, `<code>` and unknown tags are dropped, keeping their text; `<br>` is a line break;
/// - entities are decoded; an unknown or malformed one is kept as written;
/// - no control character comes out, whether written raw or as an entity (`&#x1b;`, `&#27;`,
///   `&#0;`, `&#x9b;`): a terminal would obey it (an ESC starts a sequence that can set the title,
///   write the clipboard or make the terminal type). CR, CR LF, vertical tab, form feed and NEL
///   count as line breaks (whitespace outside `<pre>`, `"\n"` inside); every other control but
///   newline and tab is dropped.
///
/// ```swift
/// HTMLText.plainText("It&#x27;s <i>here</i>.<p>See <a href=\"https:&#x2F;&#x2F;x.org\">this</a>")
/// // "It's here.\n\nSee this (https://x.org)"
/// ```
public enum HTMLText {
    /// `html` as plain text (see ``HTMLText``).
    ///
    /// ```swift
    /// HTMLText.plainText("a<p>b")   // "a\n\nb"
    /// ```
    public static func plainText(_ html: String) -> String {
        var renderer = Renderer()
        var index = html.startIndex
        while index < html.endIndex {
            let character = html[index]
            if character == "<", let tag = Tag(html, at: index) {
                renderer.apply(tag)
                index = tag.end
            } else if character == "&", let (decoded, next) = entity(in: html, at: index) {
                if let decoded = withoutControl(decoded) { renderer.append(decoded) }
                index = next
            } else {
                if let kept = withoutControl(character) { renderer.append(kept) }
                index = html.index(after: index)
            }
        }
        return renderer.finish()
    }

    /// `text` with its entities decoded and, as in ``plainText(_:)``, no control character but
    /// newline and tab (a line-break control becomes `"\n"`, any other is dropped); nothing else
    /// changed.
    ///
    /// ```swift
    /// HTMLText.decodingEntities("https:&#x2F;&#x2F;a.org&#x2F;?q=1&amp;r=2")   // "https://a.org/?q=1&r=2"
    /// HTMLText.decodingEntities("a&#x1b;]0;title&#7;b")                       // "a]0;titleb"
    /// ```
    public static func decodingEntities(_ text: String) -> String {
        guard text.contains("&") || text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        var index = text.startIndex
        while index < text.endIndex {
            if text[index] == "&", let (decoded, next) = entity(in: text, at: index) {
                if let decoded = withoutControl(decoded) { result.append(decoded) }
                index = next
            } else {
                if let kept = withoutControl(text[index]) { result.append(kept) }
                index = text.index(after: index)
            }
        }
        return result
    }

    /// `character`, unless it is a control: a line break (CR, CR LF, VT, FF, NEL) becomes
    /// `"\n"`, any other control is dropped (nil). Newline and tab are kept as they are.
    static func withoutControl(_ character: Character) -> Character? {
        guard character.unicodeScalars.contains(where: isControl) else { return character }
        return character.isWhitespace ? "\n" : nil
    }

    /// C0 controls but newline and tab, DEL and C1 controls: what a terminal acts on.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A: false
        case 0x00...0x1F, 0x7F...0x9F: true
        default: false
        }
    }

    static let namedEntities: [String: Character] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ",
        "hellip": "…", "mdash": "—", "ndash": "–", "copy": "©",
    ]

    /// The entity starting at `start` (an `&`) and the index after its `;`, or nil when there is
    /// no well-formed entity there. A numeric one may name a control (`&#0;`, `&#x1b;`): callers
    /// pass it through ``withoutControl(_:)``. One too large for a scalar, or with more digits
    /// than `UInt32` holds (`&#99999999999999999999;`), is malformed and kept as written: the
    /// digits are parsed by `UInt32(_:radix:)`, which answers nil rather than trapping.
    static func entity(in text: String, at start: String.Index) -> (Character, String.Index)? {
        var index = text.index(after: start)
        var name = ""
        while index < text.endIndex, text[index] != ";" {
            guard name.count < 10, text[index].isLetter || text[index].isNumber || text[index] == "#" else { return nil }
            name.append(text[index])
            index = text.index(after: index)
        }
        guard index < text.endIndex, !name.isEmpty else { return nil }
        let next = text.index(after: index)
        if name.hasPrefix("#") {
            let digits = name.dropFirst()
            let value = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            guard let value, let scalar = Unicode.Scalar(value) else { return nil }
            return (Character(scalar), next)
        }
        return namedEntities[name.lowercased()].map { ($0, next) }
    }
}

extension HTMLText {
    /// One tag: its lowercased name, whether it closes, its `href` and where it ends.
    struct Tag {
        let name: String
        let isClosing: Bool
        let href: String?
        let end: String.Index

        /// The tag at `start` (a `<`), or nil when that `<` does not begin a tag.
        init?(_ html: String, at start: String.Index) {
            let afterBracket = html.index(after: start)
            guard afterBracket < html.endIndex, html[afterBracket].isLetter || html[afterBracket] == "/",
                let close = html[afterBracket...].firstIndex(of: ">")
            else { return nil }
            var body = html[afterBracket..<close]
            isClosing = body.first == "/"
            if isClosing { body = body.dropFirst() }
            name = String(body.prefix { $0.isLetter || $0.isNumber }).lowercased()
            guard !name.isEmpty else { return nil }
            href = Self.attribute("href", in: body)
            end = html.index(after: close)
        }

        /// The value of `attribute="…"` (or `'…'`), entities decoded.
        static func attribute(_ attribute: String, in body: Substring) -> String? {
            guard let range = body.range(of: attribute + "=", options: .caseInsensitive) else { return nil }
            var rest = body[range.upperBound...]
            guard let quote = rest.first, quote == "\"" || quote == "'" else {
                return HTMLText.decodingEntities(String(rest.prefix { !$0.isWhitespace }))
            }
            rest = rest.dropFirst()
            return HTMLText.decodingEntities(String(rest.prefix { $0 != quote }))
        }
    }
}
