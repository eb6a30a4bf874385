import Foundation
import Testing

@testable import CourierLLM

@Suite("LLMAnswerDecoder")
struct DecoderTests {
    @Test("strict JSON decodes without repairs")
    func strict() throws {
        let decoded = try LLMAnswerDecoder().decode(CoinWeekly.self, fromAnswer: #"{"priceTrend":"상승","volumeChange":"증가","reason":"ETF"}"#)
        #expect(decoded.value == CoinWeekly(priceTrend: "상승", volumeChange: "증가", reason: "ETF"))
        #expect(decoded.report.isEmpty)
    }

    @Test("a refusal is noJSON with the model's trimmed text")
    func refusal() {
        let text = "현재 요청하신 정보를 제공하는 데 어려움이 있습니다"
        #expect(throws: LLMDecodingError.noJSON(modelText: text)) {
            try LLMAnswerDecoder().decode(CoinOverview.self, fromAnswer: "  \(text)\n")
        }
        #expect(throws: LLMDecodingError.noJSON(modelText: "I'm sorry, I can't help with that.")) {
            try LLMAnswerDecoder().decode([CoinRank].self, fromAnswer: "I'm sorry, I can't help with that.")
        }
    }

    @Test("an API envelope around a refusal yields the message as model text")
    func envelopeRefusal() {
        let answer = #"{"action": {"name": "", "speak": "…"}, "content": "죄송합니다. 제공할 수 없습니다."}"#
        #expect(throws: LLMDecodingError.noJSON(modelText: "죄송합니다. 제공할 수 없습니다.")) {
            try LLMAnswerDecoder().decode(CoinTodayNews.self, fromAnswer: answer)
        }
        #expect(answer.extractedJSON == nil)
    }

    @Test("JSON of another type is a type mismatch")
    func mismatch() {
        do {
            _ = try LLMAnswerDecoder().decode(CoinOverview.self, fromAnswer: #"{"symbol": "BTC", "launchDate": 2009}"#)
            Issue.record("decoded a mismatching value")
        } catch {
            guard case .typeMismatch(let candidates, let lastError) = error else {
                Issue.record("expected typeMismatch, got \(error)")
                return
            }
            #expect(candidates >= 1)
            #expect(!lastError.isEmpty)
        }
    }

    @Test("a lone number inside prose is not an answer, but a bare scalar answer is")
    func scalars() throws {
        #expect(throws: LLMDecodingError.self) { try LLMAnswerDecoder().decode(Int.self, fromAnswer: "The answer is 42, probably.") }
        #expect(try LLMAnswerDecoder().decode(Int.self, fromAnswer: "```json\n42\n```").value == 42)
        #expect(try LLMAnswerDecoder().decode(Bool.self, fromAnswer: " True ").value == true)
        #expect("There are 3 coins.".extractedJSON == nil)
    }

    @Test("the type picks the right candidate and unwraps wrappers")
    func candidateChoice() throws {
        let answer = """
            Example: {"rank": 0}
            ```json
            {"data": {"priceTrend": "up", "volumeChange": "flat", "reason": "news"}}
            ```
            """
        let decoded = try LLMAnswerDecoder().decode(CoinWeekly.self, fromAnswer: answer)
        #expect(decoded.value.priceTrend == "up")
        #expect(decoded.report.contains(.unwrappedField("data")))
        let ranks = try LLMAnswerDecoder().decode([CoinRank].self, fromAnswer: #"{"result": [{"rank": 1, "symbol": "BTC"}]}"#)
        #expect(ranks.value == [CoinRank(rank: 1, symbol: "BTC")])
    }

    @Test("decoder strategies are honoured")
    func strategies() throws {
        struct Snake: Decodable, Equatable {
            let sourceLink: String
            let launchDate: Date
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        let answer = "Here: {'source_link': 'https://a.kr', 'launch_date': '2009-01-03T00:00:00Z',}"
        let decoded = try LLMAnswerDecoder(decoder: decoder).decode(Snake.self, fromAnswer: answer)
        #expect(decoded.value.sourceLink == "https://a.kr")
        #expect(decoded.value.launchDate == Date(timeIntervalSince1970: 1_230_940_800))
    }

    @Test("String.extractedJSON returns compact JSON text or nil")
    func extractedJSON() {
        #expect("```json\n{ \"a\" : [1, 2] }\n```".extractedJSON == #"{"a":[1,2]}"#)
        #expect("no json here".extractedJSON == nil)
        #expect("".extractedJSON == nil)
        #expect("{}".extractedJSON == "{}")
        #expect("See [1] and {} for details.".extractedJSON == nil)
    }
}
