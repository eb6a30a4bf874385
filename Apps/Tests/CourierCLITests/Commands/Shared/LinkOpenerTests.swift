import ArgumentParser
import Foundation
import Testing

@testable import courier

/// What the link opener refuses, in this process (the network's links reach it through
/// `--open`; the built binary's runs are ``LinkOpenerBinaryTests``).
@Suite("LinkOpener: only http(s) links are opened")
struct LinkOpenerTests {
    @Test(
        "http and https links, the scheme in any case, are opened as given",
        arguments: [
            "https://culture.seoul.go.kr/culture/culture/cultureEvent/view.do?cultcode=150001&menuNo=200009", "http://example.com",
            "HTTPS://Example.com/a%20b", "HtTp://127.0.0.1:8080/x#frag", "http://[::1]:8080/",
        ])
    func accepted(link: String) {
        #expect(LinkOpener.refusal(of: link) == nil)
    }

    @Test(
        "another scheme, a control character, a space or no host is refused",
        arguments: [
            ("javascript:alert(document.cookie)", "not javascript:"), ("JavaScript://%0Aalert(1)", "not javascript:"),
            ("file:///etc/passwd", "not file:"), ("data:text/html,<script>alert(1)</script>", "not data:"),
            ("mailto:a@example.com", "not mailto:"), ("ftp://example.com/x", "not ftp:"), ("x-custom-app://open", "not x-custom-app:"),
            ("https://exa\u{1B}]52;c;aGk=\u{07}mple.com", "control characters"), ("https://example.com/\u{9B}31m", "control characters"),
            ("https://example.com/\nSet-Cookie:x", "control characters"), ("https://example.com/a b", "spaces"),
            ("https://example.com/\u{3000}", "spaces"), ("http:/example.com", "with a host"), ("https://", "with a host"),
            ("//example.com", "no scheme"), ("example.com", "no scheme"), ("", "empty"), ("-https://x", "no scheme"),
        ])
    func refused(link: String, reason: String) {
        let refusal = LinkOpener.refusal(of: link)
        #expect(refusal?.contains(reason) == true, "\(String(reflecting: refusal))")
    }

    @Test("a refused link ends with exit 15 and its browser never runs")
    func refusedExit() async throws {
        let home = try PrivateHome("open-refused")
        defer { home.remove() }
        let browser = try home.recordingBrowser()
        for link in ["javascript:alert(1)", "file:///etc/passwd", "https://a\u{1B}[2Jb.example"] {
            await #expect(throws: ExitCode(15)) { try await LinkOpener.open(link, environment: ["BROWSER": browser.path]) }
        }
        #expect(try browser.runs().isEmpty)
    }

    @Test("no link at all ends with exit 1; a good one runs $BROWSER with it as the one argument")
    func missingAndOpened() async throws {
        let home = try PrivateHome("open-missing")
        defer { home.remove() }
        let browser = try home.recordingBrowser()
        await #expect(throws: ExitCode(1)) {
            try await LinkOpener.open(nil, missing: "no homepage", environment: ["BROWSER": browser.path])
        }
        // Shell syntax arrives as text: no shell between courier and the browser.
        let link = "https://example.com/a?b=c&d='e'$(reboot);z*"
        try await LinkOpener.open(link, environment: ["BROWSER": browser.path])
        #expect(try browser.runs() == [[link]])
    }

    @Test("a link shown in a message has its controls visible and is cut to 200 characters")
    func shownLink() {
        #expect(LinkOpener.shown("javascript:\u{1B}]0;x\u{07}") == "javascript:␛]0;x␇")
        let long = "javascript:" + String(repeating: "a", count: 5_000)
        #expect(LinkOpener.shown(long).count == LinkOpener.shownLimit + 1)
    }
}
