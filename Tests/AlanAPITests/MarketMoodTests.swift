import AlanAPI
import Courier
import CourierConcurrency
import CourierLLM
import CourierSandbox
import Foundation
import IntegrationTestSupport
import Synchronization
import Testing

/// Today's market mood (the coin app's "긍정적" label and "전체적인 시장은 호재예요" line): a field
/// the model fills, read tolerantly — a missing or unknown word is no label, never a failed section.
@Suite("Coin report: today's market mood")
struct MarketMoodTests {
    /// A source whose today section carries `marker` (`#mood:WORD`) in its prompt, asked whole or streamed.
    struct MoodSource: CoinReportSource {
        let alan: AlanClient
        let marker: String
        func overview(for coin: Coin) async throws -> CoinOverview { try await alan.overview(for: coin) }
        func weekly(for coin: Coin) async throws -> CoinWeekly { try await alan.weekly(for: coin) }
        func today(for coin: Coin) async throws -> CoinTodayNews {
            try await alan.ask(CoinPrompts.today(for: coin) + "\n" + marker, as: CoinTodayNews.self)
        }
        func today(for coin: Coin, partial: @escaping @Sendable (JSONSnapshot) async -> Void) async throws -> CoinTodayNews {
            for try await update in alan.stream(CoinPrompts.today(for: coin) + "\n" + marker, as: CoinTodayNews.self) {
                switch update {
                case .partial(let snapshot, _): await partial(snapshot)
                case .complete(let value): return value
                }
            }
            throw NetworkError.invalidResponse
        }
    }

    @Test("the prompt asks for the mood as an optional field with its three words")
    func prompt() {
        let prompt = CoinPrompts.today(for: Coin(symbol: "ETH"))
        #expect(prompt.contains("    /// 오늘의 시장 분위기 한 단어: positive(호재), neutral(보합세), negative(악재) 중 하나\n    let marketMood: String?"))
        #expect(prompt.contains("전체적인 시장 분위기를 positive, neutral, negative 중 하나로 판단해 marketMood에 작성"))
    }

    @Test("the stand-in's mood decodes whatever the wrapping", arguments: CoinAnswerDecodingTests.todayBreakages)
    func standInMood(_ breakage: String) async throws {
        try await withSandbox { sandbox throws in
            let prompt = CoinPrompts.today(for: Coin(symbol: "ETH")) + "\n#breakage:\(breakage)"
            let today = try await alanClient(sandbox).ask(prompt, as: CoinTodayNews.self)
            #expect(today.marketMood == .positive)
            #expect(today.marketMood?.label == "긍정적")
            #expect(today.marketMood?.headline == "전체적인 시장은 호재예요")
            #expect(today.articles.count == 3)
        }
    }

    @Test(
        "the model's word, tolerantly: any case, Korean, or no mood at all (unknown, missing) — the section still decodes",
        arguments: [
            ("Neutral", MarketMood?.some(.neutral)), ("NEGATIVE", .negative), ("악재", .negative), ("호재", .positive),
            ("bullish", nil), ("none", nil),
        ])
    func tolerant(_ word: String, _ expected: MarketMood?) async throws {
        try await withSandbox { sandbox throws in
            let prompt = CoinPrompts.today(for: Coin(symbol: "BTC")) + "\n#mood:\(word)"
            let today = try await alanClient(sandbox).ask(prompt, as: CoinTodayNews.self)
            #expect(today.marketMood == expected)
            #expect(today.articles.count == 3)
            #expect(today.summaryOfTodaysMarketSentiment.contains("'신중한'"))
        }
    }

    @Test("a mood of another type (a number, an object, null) is no mood, not a decoding error")
    func otherShapes() throws {
        for value in ["3", "{\"a\": 1}", "null", "[\"positive\"]", "\"\""] {
            let json = "{\"summaryOfTodaysMarketSentiment\": \"s\", \"marketMood\": \(value), \"articles\": []}"
            let today = try JSONDecoder().decode(CoinTodayNews.self, from: Data(json.utf8))
            #expect(today.marketMood == nil, "\(value)")
            let partial = try JSONDecoder().decode(CoinTodayNews.Partial.self, from: Data(json.utf8))
            #expect(partial.marketMood == nil, "\(value)")
        }
        // The summary and the articles stay as strict as before.
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(CoinTodayNews.self, from: Data("{\"marketMood\": \"positive\"}".utf8)) }
    }

    @Test("encoded as its English word, null without one; it round-trips")
    func encoding() throws {
        let article = CoinArticle(title: "t", summary: "s", newsSourceURL: "https://a.example/1")
        for mood in [MarketMood?.none, .positive, .neutral, .negative] {
            let today = CoinTodayNews(summaryOfTodaysMarketSentiment: "요약", marketMood: mood, articles: [article])
            let text = String(decoding: try JSONEncoder().encode(today), as: UTF8.self)
            #expect(text.contains("\"marketMood\":\(mood.map { "\"\($0.rawValue)\"" } ?? "null")"), "\(text)")
            #expect(try JSONDecoder().decode(CoinTodayNews.self, from: Data(text.utf8)) == today)
        }
        #expect(MarketMood.allCases.map(\.label) == ["긍정적", "중립적", "부정적"])
        #expect(MarketMood.allCases.map(\.headline) == ["전체적인 시장은 호재예요", "전체적인 시장은 보합세예요", "전체적인 시장은 악재예요"])
        #expect(MarketMood(answer: " Positive. ") == .positive)
        #expect(MarketMood(answer: "pos") == nil)
    }

    @Test(
        "a streamed report: the draft's mood is nil or the final one, never a failure; an unknown word ends in success without a label",
        arguments: ["#mood:negative", "#mood:bullish"])
    func streamedReport(_ marker: String) async throws {
        try await withSandbox { sandbox throws in
            // Tokens 5 ms apart: today's answer streams for about a second, so its drafts are shown.
            try await control(sandbox, .init(tokenDelayMs: 5))
            let drafts = DraftMoods()
            let source = MoodSource(alan: alanClient(sandbox), marker: marker)
            let report = CoinReport(coin: Coin(symbol: "ETH"), source: source, interval: .zero, streaming: true) { section, snapshot in
                if section == .today, let draft = snapshot.todayDraft { drafts.append(draft.marketMood) }
            }
            await report.run()
            let today = try #require(report.snapshot.today.value, "\(report.snapshot.stateName(of: .today))")
            let expected: MarketMood? = marker == "#mood:negative" ? .negative : nil
            #expect(today.marketMood == expected)
            #expect(today.articles.count == 3)
            let seen = drafts.all
            #expect(!seen.isEmpty)
            #expect(seen.allSatisfy { $0 == nil || $0 == expected })
            if expected != nil { #expect(seen.contains(expected)) }
        }
    }

    final class DraftMoods: Sendable {
        private let moods = Mutex<[MarketMood?]>([])
        func append(_ mood: MarketMood?) { moods.withLock { $0.append(mood) } }
        var all: [MarketMood?] { moods.withLock { $0 } }
    }
}
