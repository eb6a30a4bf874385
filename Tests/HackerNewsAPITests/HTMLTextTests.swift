import HackerNewsAPI
import Testing

@Suite("HN's HTML as plain text")
struct HTMLTextTests {
    @Test("paragraphs become blank-line separated, whitespace collapses")
    func paragraphs() {
        #expect(HTMLText.plainText("one\n two<p>three<p></p><p>four") == "one two\n\nthree\n\nfour")
        #expect(HTMLText.plainText("<p>lead</p><p>trail</p>") == "lead\n\ntrail")
    }

    @Test("entities: named, decimal, hex (&#x27; &#x2F;), unknown kept as written")
    func entities() {
        #expect(HTMLText.plainText("it&#x27;s a&#x2F;b &amp; &lt;c&gt; &quot;d&quot; &#39;e&#39;") == "it's a/b & <c> \"d\" 'e'")
        #expect(HTMLText.plainText("AT&T &bogus; &#xZZ; & done") == "AT&T &bogus; &#xZZ; & done")
    }

    @Test("a link showing its address becomes the address; another becomes text (address)")
    func links() {
        let shown = #"See <a href="https:&#x2F;&#x2F;example.com&#x2F;a" rel="nofollow">https:&#x2F;&#x2F;example.com&#x2F;a</a> now"#
        #expect(HTMLText.plainText(shown) == "See https://example.com/a now")
        let shortened =
            #"<a href="https:&#x2F;&#x2F;example.com&#x2F;a&#x2F;very&#x2F;long&#x2F;path">https:&#x2F;&#x2F;example.com&#x2F;a&#x2F;ve...</a>"#
        #expect(HTMLText.plainText(shortened) == "https://example.com/a/very/long/path")
        #expect(HTMLText.plainText(#"read <a href="https://x.org">this</a>."#) == "read this (https://x.org).")
    }

    @Test("<i>, <b> and unknown tags keep their text; a lone < is text")
    func inlineTags() {
        #expect(HTMLText.plainText("<i>really</i> <b>bold</b> <span>x</span>") == "really bold x")
        #expect(HTMLText.plainText("a < b and c<d") == "a < b and c<d")
    }

    @Test("<pre><code> keeps its lines and indentation as a block of its own")
    func preformatted() {
        let html = "Try:<p><pre><code>  let x = 1\n  print(x &lt; 2)\n</code></pre>\nDone."
        #expect(HTMLText.plainText(html) == "Try:\n\n  let x = 1\n  print(x < 2)\n\nDone.")
    }

    @Test("empty and tag-only input give empty text")
    func empty() {
        #expect(HTMLText.plainText("") == "")
        #expect(HTMLText.plainText("<p><i></i>") == "")
    }
}
