import AlanAPI
import Courier
import Foundation
import Testing

/// Prompts built from the DTOs' shape and the seed's rules.
@Suite("Alan prompts")
struct AlanPromptTests {
    @Test("the struct text lists each field with its comment, type and optionality, in the given order")
    func structText() {
        #expect(
            AlanPrompt.structText(of: CoinOverview.self) == """
                struct CoinOverview: Codable {
                    /// 심볼: ETH
                    let symbol: String

                    /// 웹사이트: https://ethereum.org/ko/
                    let websiteURL: String?

                    /// 최초발행: 2015.07.
                    let launchDate: String

                    /// 디지털 자산 소개, 문장을 자연스럽게 연결하기
                    let description: String
                }
                """)
    }

    @Test("nested arrays name their element type, which is described after")
    func nested() {
        let prompt = CoinPrompts.today(for: Coin(symbol: "ETH"))
        #expect(prompt.contains("    let articles: [CoinArticle]"))
        #expect(prompt.contains("struct CoinArticle: Codable {"))
        #expect(prompt.contains("    let newsSourceURL: String"))
        #expect(prompt.contains("1. 현재 국내 시간을 기준으로 최근 24시간 뉴스를 분석해 이더리움 시장 분위기를 요약"))
        #expect(prompt.contains("2. 전체적인 시장 분위기를 positive, neutral, negative 중 하나로 판단해 marketMood에 작성"))
        #expect(prompt.contains("3. 뉴스 중 3개를 골라 각각 제목, 요약, 출처 링크를 작성"))
        #expect(prompt.hasSuffix("위 조건에 따라 \"이더리움\"에 대한 내용을 위 JSON 형식으로 작성 (마크다운 금지, 출처 제외)"))
    }

    @Test("the weekly prompt uses the last week in Korean time")
    func weekly() {
        let prompt = CoinPrompts.weekly(for: Coin(symbol: "doge"))
        #expect(prompt.contains("1. 현재 국내 시간을 기준으로 일주일 동안의 정보 사용"))
        #expect(prompt.contains("\"도지코인\"에 대한"))
        #expect(prompt.hasPrefix("struct CoinWeekly: Codable {\n    /// 최근 일주일 가격 추이\n    let priceTrend: String"))
    }

    @Test("an overview without a website encodes websiteURL as null, and decodes back")
    func overviewJSON() throws {
        let overview = CoinOverview(symbol: "XYZ", websiteURL: nil, launchDate: "2017.01.", description: "소개")
        let data = try JSONEncoder().encode(overview)
        #expect(String(decoding: data, as: UTF8.self).contains("\"websiteURL\":null"))
        #expect(try JSONDecoder().decode(CoinOverview.self, from: data) == overview)
    }

    @Test("keys come from ALAN_CLIENT_ID and ALAN_CLIENT_ID_<TASK>, per task first")
    func keysFromEnvironment() throws {
        let keys = AlanClientIDs.environment(["ALAN_CLIENT_ID": "any-key", "ALAN_CLIENT_ID_COIN_REPORT": "report-key"])
        #expect(try keys.clientID(for: .coinReport) == "report-key")
        #expect(try keys.clientID(for: .dashboardBriefing) == "any-key")
        #expect(AlanTask.coinIDExtraction.environmentName == "ALAN_CLIENT_ID_COIN_ID_EXTRACTION")
        let none = AlanClientIDs.environment([:])
        #expect(throws: NetworkError.invalidAPIKey) { try none.clientID(for: .coinReport) }
        #expect(!"\(keys)".contains("any-key") && !"\(keys)".contains("report-key"))
    }
}
