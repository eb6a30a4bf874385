import AlanAPI
import Courier
import CourierSandbox
import Foundation
import IntegrationTestSupport
import Testing

/// The seeds' broken answers, served by the stand-in, decode into the coin DTOs.
@Suite("Coin answers from the model")
struct CoinAnswerDecodingTests {
    static let breakages = ["clean", "fence", "prose", "citation", "singleQuotes"]
    static let todayBreakages = breakages + ["missingArticlesKey", "missingArticlesBracket", "missingArticlesBrackets"]

    @Test("overview decodes whatever the wrapping", arguments: breakages)
    func overview(_ breakage: String) async throws {
        try await withSandbox { sandbox throws in
            let prompt = CoinPrompts.overview(for: Coin(symbol: "ETH")) + "\n#breakage:\(breakage)"
            let overview = try await alanClient(sandbox).ask(prompt, as: CoinOverview.self)
            #expect(overview.symbol == "ETH")
            #expect(overview.websiteURL == "https://ethereum.org/ko/")
            #expect(overview.websiteHost == "ethereum.org")
            #expect(overview.launchDate == "2015.07.")
            #expect(overview.description.contains("'P2P'"))
        }
    }

    @Test("weekly decodes whatever the wrapping", arguments: breakages)
    func weekly(_ breakage: String) async throws {
        try await withSandbox { sandbox throws in
            let prompt = CoinPrompts.weekly(for: Coin(symbol: "BTC")) + "\n#breakage:\(breakage)"
            let weekly = try await alanClient(sandbox).ask(prompt, as: CoinWeekly.self)
            #expect(weekly.priceTrend.hasPrefix("비트코인의 가격은"))
            #expect(weekly.volumeChange.contains("'저가 매수'"))
            #expect(!weekly.reason.contains("출처"))
        }
    }

    @Test("today decodes three articles, even without the articles key or its brackets", arguments: todayBreakages)
    func today(_ breakage: String) async throws {
        try await withSandbox { sandbox throws in
            let prompt = CoinPrompts.today(for: Coin(symbol: "BTC")) + "\n#breakage:\(breakage)"
            let today = try await alanClient(sandbox).ask(prompt, as: CoinTodayNews.self)
            #expect(today.summaryOfTodaysMarketSentiment.contains("'신중한'"))
            #expect(today.articles.count == 3)
            #expect(today.articles.map(\.sourceHost) == ["kr.beincrypto.com", "panewslab.com", "theonetcv.kr"])
        }
    }

    @Test("the default answers (fence, citations, missing [) decode too")
    func defaults() async throws {
        try await withSandbox { sandbox throws in
            let alan = alanClient(sandbox)
            let coin = Coin(symbol: "BTC")
            #expect(try await alan.overview(for: coin).symbol == "BTC")
            #expect(try await alan.weekly(for: coin).reason.contains("CPI"))
            #expect(try await alan.today(for: coin).articles.count == 3)
        }
    }

    @Test("a refusal in plain Korean is modelRefusal with the model's own words")
    func refusal() async throws {
        try await withSandbox { sandbox throws in
            let prompt = CoinPrompts.today(for: Coin(symbol: "BTC")) + "\n#breakage:refusal"
            let error = await #expect(throws: NetworkError.self) { try await alanClient(sandbox).ask(prompt, as: CoinTodayNews.self) }
            guard case .modelRefusal(let text)? = error else {
                Issue.record("expected modelRefusal, got \(String(describing: error))")
                return
            }
            #expect(text.hasPrefix("현재 \"비트코인\"에 대한 최신 뉴스를 가져오는 데 어려움이 있습니다."))
        }
    }
}
