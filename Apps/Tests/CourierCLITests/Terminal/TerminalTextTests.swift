import Foundation
import HackerNewsAPI
import Testing

@testable import courier

/// The CLI's terminal layer: what a hostile server's text turns into before a terminal sees it.
@Suite("TerminalText: outside text escaped for a terminal")
struct TerminalTextTests {
    /// Whether `text` holds anything a terminal would act on (C0 but newline and tab, DEL, C1).
    static func hasControl(_ text: String) -> Bool {
        text.unicodeScalars.contains(where: TerminalText.isControl)
    }

    @Test("OSC 52 (write the clipboard) is shown, ESC and BEL as their pictures")
    func clipboardWrite() {
        let hostile = "title\u{1B}]52;c;cm0gLXJmIH4=\u{07}end"
        let shown = TerminalText.escaped(hostile)
        #expect(shown == "title␛]52;c;cm0gLXJmIH4=␇end")
        #expect(!Self.hasControl(shown))
    }

    @Test("a title set (ESC ] 0 ; … BEL) and one ended by ST (ESC \\) are inert")
    func titleSet() {
        #expect(TerminalText.escaped("\u{1B}]0;pwned\u{07}Show HN") == "␛]0;pwned␇Show HN")
        #expect(TerminalText.escaped("\u{1B}]2;pwned\u{1B}\\x") == "␛]2;pwned␛\\x")
    }

    @Test("a DSR query (ESC [ 6 n), which makes the terminal type an answer, is inert")
    func deviceStatusReport() {
        #expect(TerminalText.escaped("a\u{1B}[6nb") == "a␛[6nb")
        #expect(TerminalText.escaped("\u{1B}P$q\"p\u{1B}\\") == "␛P$q\"p␛\\")  // DCS request
    }

    @Test("C1 controls: the 8-bit CSI U+009B is shown as ␛[, OSC U+009D as ␛], ST U+009C as ␛\\")
    func c1Controls() {
        #expect(TerminalText.escaped("x\u{9B}31mred") == "x␛[31mred")
        #expect(TerminalText.escaped("\u{9D}52;c;AA==\u{9C}") == "␛]52;c;AA==␛\\")
        #expect(TerminalText.escaped("\u{80}\u{9F}") == "␛@␛_")
        #expect(!Self.hasControl(TerminalText.escaped(String((0x80...0x9F).map { Character(Unicode.Scalar($0)!) }))))
    }

    @Test("bare ESC, DEL, NUL, BEL, backspace and a lone CR are shown; CR LF stays a line ending")
    func singleControls() {
        #expect(TerminalText.escaped("\u{1B}") == "␛")
        #expect(TerminalText.escaped("a\u{7F}b") == "a␡b")
        #expect(TerminalText.escaped("a\u{0}b") == "a␀b")
        #expect(TerminalText.escaped("\u{07}\u{08}") == "␇␈")
        #expect(TerminalText.escaped("fake\rreal") == "fake␍real")
        #expect(TerminalText.escaped("one\r\ntwo") == "one\r\ntwo")
    }

    @Test("newline, tab, Korean, emoji and plain text are kept as they are")
    func keptText() {
        let text = "첫 줄\n\t둘째 줄 — 비트코인 👨‍👩‍👧‍👦 café"
        #expect(TerminalText.escaped(text) == text)
        let all = String((0...0x1F).map { Character(Unicode.Scalar($0)!) })
        #expect(TerminalText.escaped(all).filter { $0 == "\n" || $0 == "\t" }.count == 2)
        #expect(!Self.hasControl(TerminalText.escaped(all)))
    }

    @Test("escaping twice changes nothing more, and a sequence split in two pieces is caught in each")
    func idempotentAndSplit() {
        let once = TerminalText.escaped("\u{1B}[2J\u{9B}6n")
        #expect(TerminalText.escaped(once) == once)
        #expect(TerminalText.escaped("\u{1B}]52;c;") + TerminalText.escaped("aGk=\u{07}") == "␛]52;c;aGk=␇")
    }

    @Test("only text bound for a terminal is escaped; piped text is unchanged")
    func onlyForATerminal() {
        let text = "a\u{1B}[6n\u{9B}b"
        #expect(TerminalText.shown(text, toTerminal: false) == text)
        #expect(TerminalText.shown(text, toTerminal: true) == "a␛[6n␛[b")
    }

    @Test("JSON for a terminal escapes DEL and C1 as \\u00XX: still JSON, the same values")
    func jsonStaysJSON() throws {
        let encoded = try JSONEncoder().encode(["title": "a\u{1B}]0;x\u{07}\u{7F}\u{9B}6n"])
        let raw = String(decoding: encoded, as: UTF8.self)
        #expect(Self.hasControl(raw), "the encoder leaves DEL and C1 as they are")
        let shown = TerminalText.json(raw)
        #expect(!Self.hasControl(shown))
        #expect(shown.contains("\\u007f") && shown.contains("\\u009b"))
        let decoded = try JSONDecoder().decode([String: String].self, from: Data(shown.utf8))
        #expect(decoded == ["title": "a\u{1B}]0;x\u{07}\u{7F}\u{9B}6n"])
        #expect(TerminalText.json("{\n  \"a\": 1\n}") == "{\n  \"a\": 1\n}")
    }

    @Test("an OSC 8 link: text escaped, target percent-encoded to printable ASCII, only http(s)")
    func links() {
        let link = TerminalText.link("evil\u{1B}]0;t\u{07}", to: "https://e.com/a\u{1B}\\\u{1B}]52;c;AA==\u{07} b/한")
        #expect(link == "\u{1B}]8;;https://e.com/a%1B\\%1B]52;c;AA==%07%20b/%ED%95%9C\u{1B}\\evil␛]0;t␇\u{1B}]8;;\u{1B}\\")
        // The link's own sequences are its only controls: the target cannot close one and open another.
        #expect(link.unicodeScalars.filter { $0 == "\u{1B}" }.count == 4)
        #expect(!link.unicodeScalars.contains("\u{07}") && !link.unicodeScalars.contains("\u{9C}"))
        #expect(TerminalText.link("click", to: "file:///etc/passwd") == "click")
        #expect(TerminalText.link("x\u{1B}", to: "javascript:alert(1)") == "x␛")
    }

    @Test("a hostile story line: its only escape sequences are the two links the CLI made")
    func hostileStoryLine() {
        let item = Item(
            id: 7, type: .story, by: "mallory\u{1B}[6n", time: 0, url: "https://evil.example/x", score: 1,
            title: "Show HN\u{1B}]52;c;cm0gLXJm\u{07}\u{9B}2J", descendants: 2)
        let line = HackerNewsTerminal.storyLine(RankedStory(rank: 1, item: item))
        #expect(line.contains("Show HN␛]52;c;cm0gLXJm␇␛[2J"))
        #expect(line.contains("by mallory␛[6n"))
        let stripped = TerminalText.units(line).filter { $0.cells > 0 || $0.text.first != "\u{1B}" }.map(\.text).joined()
        #expect(!Self.hasControl(stripped), "controls outside the CLI's own link sequences: \(stripped.debugDescription)")
        #expect(line.unicodeScalars.filter { $0 == "\u{1B}" }.count == 8)  // two links, two sequences of two ESCs each
    }

    @Test("a body that is not text (NUL, not UTF-8) is binary; text and JSON are told apart")
    func bodyKinds() {
        #expect(
            BodyPrinter.render(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), contentType: "image/png")
                == .binary(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])))
        #expect(BodyPrinter.render(Data("a\u{0}b".utf8), contentType: nil) == .binary(Data("a\u{0}b".utf8)))
        #expect(BodyPrinter.render(Data("안녕 \u{1B}[6n".utf8), contentType: "text/plain") == .text("안녕 \u{1B}[6n"))
        #expect(BodyPrinter.render(Data(#"{"b":1}"#.utf8), contentType: nil) == .json("{\n  \"b\" : 1\n}"))
        #expect(BodyPrinter.render(Data(), contentType: nil) == .text(""))
        #expect(BodyPrinter.binaryHint(8, contentType: "image/png").contains("redirect stdout to a file"))
    }
}
