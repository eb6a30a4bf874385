import HackerNewsAPI
import Testing

/// A comment or profile is text from anyone: `HTMLText` must never hand a terminal a control
/// character, however it was written.
@Suite("HN's HTML as plain text: no control characters")
struct HTMLTextControlTests {
    /// C0 but newline and tab, DEL, C1.
    static func hasControl(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            scalar != "\n" && scalar != "\t" && (scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value))
        }
    }

    @Test("ESC, NUL and C1 CSI written as entities decode to nothing: &#x1b; &#27; &#0; &#x9b; &#155;")
    func controlEntities() {
        #expect(HTMLText.plainText("a&#x1b;]52;c;cm0=&#7;b") == "a]52;c;cm0=b")
        #expect(HTMLText.plainText("a&#27;[6nb") == "a[6nb")
        #expect(HTMLText.plainText("a&#0;b") == "ab")
        #expect(HTMLText.plainText("a&#x9b;2Jb&#155;c") == "a2Jbc")
        #expect(HTMLText.plainText("&#x7f;&#X1B;&#x0000001b;x") == "x")
        #expect(HTMLText.decodingEntities("t&#x1b;]0;pwned&#x7;") == "t]0;pwned")
    }

    @Test("raw control bytes in the HTML are dropped; a raw CR is a line break like the others")
    func rawControls() {
        #expect(HTMLText.plainText("Show\u{1B}]0;title\u{07} HN\u{9B}6n") == "Show]0;title HN6n")
        #expect(HTMLText.plainText("a\u{0}b\u{7F}c") == "abc")
        #expect(HTMLText.plainText("one\rtwo") == "one two")
        #expect(HTMLText.plainText("<pre><code>x\r\ny\rz</code></pre>") == "x\ny\nz")
        #expect(HTMLText.decodingEntities("a\u{1B}b\u{9D}c") == "abc")
        #expect(HTMLText.plainText(#"<a href="https://e.com/&#x1b;]52;c;AA==&#7;">x</a>"#) == "x (https://e.com/]52;c;AA==)")
        #expect(HTMLText.plainText("<a href=https://e.com/\u{1B}[2J>x</a>") == "x (https://e.com/[2J)")
    }

    @Test("newline and tab keep their handling: whitespace outside <pre>, kept inside")
    func newlineAndTab() {
        #expect(HTMLText.plainText("a&#10;b&#9;c\td") == "a b c d")
        #expect(HTMLText.plainText("<pre><code>\tx&#10;\ty</code></pre>") == "\tx\n\ty")
    }

    @Test("numeric entities too large for a scalar or for UInt32 are kept as written, no trap")
    func overflow() {
        #expect(HTMLText.plainText("&#99999999999999999999;") == "&#99999999999999999999;")
        #expect(HTMLText.plainText("&#x110000;") == "&#x110000;")
        #expect(HTMLText.plainText("&#4294967296;") == "&#4294967296;")
        #expect(HTMLText.plainText("&#xFFFFFFFFF;") == "&#xFFFFFFFFF;")
        #expect(HTMLText.plainText("&#xD800;x") == "&#xD800;x")
    }

    @Test("every C0, DEL and C1 code point, raw or as an entity, leaves no control in the output")
    func everyControl() {
        let codes = Array(0...0x1F) + Array(0x7F...0x9F)
        let raw = String(String.UnicodeScalarView(codes.compactMap { Unicode.Scalar(UInt32($0)) }))
        let entities = codes.map { "&#\($0);x&#x\(String($0, radix: 16));" }.joined()
        for html in [raw, entities, "<pre>" + raw + entities + "</pre>"] {
            #expect(!Self.hasControl(HTMLText.plainText(html)), "\(html.debugDescription)")
            #expect(!Self.hasControl(HTMLText.decodingEntities(html)), "\(html.debugDescription)")
        }
    }
}
