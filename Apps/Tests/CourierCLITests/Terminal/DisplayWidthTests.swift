import Testing

@testable import courier

/// Text measured in terminal cells, and wrapped by them.
@Suite("TerminalText: display width and wrapping")
struct DisplayWidthTests {
    @Test("Hangul, CJK, kana and fullwidth forms take two cells; halfwidth kana and ASCII one")
    func wide() {
        #expect(TerminalText.width("한") == 2)
        #expect(TerminalText.width("한국어") == 6)
        #expect(TerminalText.width("ᄒ") == 2)  // U+1112, a leading Jamo
        #expect(TerminalText.width("漢字かなカナ") == 12)
        #expect(TerminalText.width("ＡＢ") == 4)
        #expect(TerminalText.width("ｱ") == 1)
        #expect(TerminalText.width("abc") == 3)
        #expect(TerminalText.width("비트코인 BTC") == 12)
    }

    @Test("combining marks take none; a cluster of base and marks is as wide as its base")
    func combining() {
        #expect(TerminalText.width("e\u{301}") == 1)
        #expect(TerminalText.width("\u{301}") == 0)
        #expect(TerminalText.width("a\u{200B}b") == 2)  // zero width space
        #expect(TerminalText.width("\u{1112}\u{1161}\u{11AB}") == 2)  // 한 as three Jamo: one cluster
        #expect(TerminalText.width("안\u{302}") == 2)
    }

    @Test("an emoji family is one grapheme cluster of two cells; a flag and a VS16 heart two")
    func emoji() {
        let family = "👨‍👩‍👧‍👦"
        #expect(family.count == 1)
        #expect(family.unicodeScalars.count == 7)
        #expect(TerminalText.width(family) == 2)
        #expect(TerminalText.width("🇰🇷") == 2)
        #expect(TerminalText.width("❤️") == 2)
        #expect(TerminalText.width("😀x") == 3)
    }

    @Test("escape sequences (the CLI's own SGR and OSC 8) take no cells; escaped controls one")
    func escapes() {
        #expect(TerminalText.width("\u{1B}[1m굵게\u{1B}[0m") == 4)
        #expect(TerminalText.width(TerminalText.link("news.com", to: "https://news.com/a")) == 8)
        #expect(TerminalText.width(TerminalText.escaped("\u{1B}[6n")) == 4)
    }

    @Test("padding is measured in cells")
    func padding() {
        #expect(TerminalText.leftPadded("한", to: 4) == "  한")
        #expect("한국".leftPadded(to: 3) == "한국")
        #expect(TerminalText.rightPadded("가", to: 3) == "가 ")
    }

    /// Every line of `lines` within `width` cells.
    static func fits(_ lines: [String], _ width: Int) -> Bool {
        lines.allSatisfy { TerminalText.width($0) <= width }
    }

    @Test("a Korean overview in 110 columns: broken at spaces, never inside a word, every line indented")
    func koreanOverview() {
        let overview =
            "이더리움은 2015년 비탈릭 부테린이 제안한 스마트 계약 플랫폼으로, 탈중앙화 애플리케이션과 토큰 발행의 기반이 되는 "
            + "블록체인입니다. 지분 증명 방식으로 전환한 뒤 에너지 사용량을 크게 줄였고, 레이어 2 확장 솔루션과 함께 거래 처리량을 "
            + "늘려 가고 있으며, 디파이와 대체 불가능 토큰 생태계의 중심으로 자리 잡았습니다."
        let lines = TerminalText.wrap(overview, width: 110, indent: "    ")
        #expect(lines.count == 3)
        #expect(Self.fits(lines, 110), "\(lines.map { TerminalText.width($0) })")
        #expect(lines.allSatisfy { $0.hasPrefix("    ") && !$0.hasPrefix("     ") })
        // The words, in order, are exactly the overview's: none was cut.
        let words = lines.flatMap { $0.split(separator: " ") }
        #expect(words == overview.split(separator: " "))
        // Greedy: the next word would not have fitted on the line before.
        for (line, next) in zip(lines, lines.dropFirst()) {
            let firstWord = next.split(separator: " ").first.map(String.init) ?? ""
            #expect(TerminalText.width(line) + 1 + TerminalText.width(firstWord) > 110)
        }
        // Measured in characters, as before, the first line would have run to 130 cells or more.
        #expect(TerminalText.width(String(overview.prefix(106))) > 130)
    }

    @Test("a hanging indent for continuation lines; escape sequences are never cut; blank lines stay")
    func hangingIndentAndEscapes() {
        let bullet = "• 비트코인 현물 ETF 순유입 \u{1B}[4m\u{1B}]8;;https://n.example/a\u{1B}\\n.example\u{1B}]8;;\u{1B}\\\u{1B}[24m 계속"
        let lines = TerminalText.wrap(bullet, width: 24, indent: "    ", continuation: "      ")
        #expect(
            lines == [
                "    • 비트코인 현물 ETF", "      순유입 \u{1B}[4m\u{1B}]8;;https://n.example/a\u{1B}\\n.example\u{1B}]8;;\u{1B}\\\u{1B}[24m", "      계속",
            ])
        #expect(TerminalText.wrap("하나\n\n둘", width: 10, indent: "  ") == ["  하나", "", "  둘"])
    }

    @Test("a word longer than the line is broken between grapheme clusters, each line full")
    func longWord() {
        let lines = TerminalText.wrap("가나다라마바사아자", width: 8)
        #expect(lines == ["가나다라", "마바사아", "자"])
        let families = String(repeating: "👨‍👩‍👧‍👦", count: 5)
        let broken = TerminalText.wrap(families, width: 5, indent: " ")
        #expect(broken == [" 👨‍👩‍👧‍👦👨‍👩‍👧‍👦", " 👨‍👩‍👧‍👦👨‍👩‍👧‍👦", " 👨‍👩‍👧‍👦"])
        #expect(TerminalText.wrap("abc", width: 0) == ["a", "b", "c"])  // always progresses
    }
}
