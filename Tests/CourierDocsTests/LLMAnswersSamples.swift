// Mirrors: Sources/Courier/Courier.docc/Articles/llm-answers.md
//
// The article's code, line for line (DocsSyncTests checks that every sample is here).
// SampleRunTests runs the decoding samples (no network); `fromAClient` is compiled only.

import Courier
import CourierLLM
import CourierLLMAdapter
import Foundation

struct CoinWeekly: Decodable, Sendable {
    let priceTrend: String
    let volumeChange: String
    let reason: String
}

extension AlanAPI {
    var responseDecoding: any ResponseDecoding { LLMResponseDecoding(keyPath: ["content"]) }
}

enum LLMAnswersArticle {
    static func decodeAnAnswer() throws -> LLMDecoded<CoinWeekly> {
        let answer = """
            이번 주 비트코인 동향입니다.
            ```json
            {"priceTrend": "상승", "volumeChange": "+12%", "reason": "ETF 자금 유입",}
            ```
            """
        let weekly = try LLMAnswerDecoder().decode(CoinWeekly.self, fromAnswer: answer)
        print(weekly.value.priceTrend)   // 상승
        print(weekly.report.repairs)     // [stripped code fence, stripped surrounding prose, removed trailing comma]
        return weekly
    }

    static func refusal() {
        do {
            _ = try LLMAnswerDecoder().decode(CoinWeekly.self, fromAnswer: "현재 실시간 데이터를 가져오는 데 어려움이 있습니다.")
        } catch .noJSON(let modelText) {
            print(modelText)   // 현재 실시간 데이터를 가져오는 데 어려움이 있습니다.
        } catch {
            print(error)       // .typeMismatch: JSON was found, but none of it is a CoinWeekly
        }
    }

    static func fromAClient(client: NetworkClient) async {
        do {
            let weekly = try await client.request(AlanAPI.question("비트코인 주간 동향을 JSON으로"), as: CoinWeekly.self)
            print(weekly.reason)
        } catch .modelRefusal(let text) {
            print(text)
        } catch {
            print(error.log())
        }
    }

    static func repairReport() throws -> (articles: Int, orphans: Bool, truncated: Bool, repairs: [String]) {
        struct CoinArticle: Decodable, Sendable { let title: String; let newsSourceURL: String }
        struct CoinTodayNews: Decodable, Sendable { let summaryOfTodaysMarketSentiment: String; let articles: [CoinArticle] }

        let broken = #"{"summaryOfTodaysMarketSentiment": "관망", {"title": "A", "newsSourceURL": "https://a.example.com"}}"#
        let today = try LLMAnswerDecoder().decode(CoinTodayNews.self, fromAnswer: broken)
        print(today.value.articles.count)                                             // 1
        print(today.report.contains(.wrappedOrphanedObjects(key: "articles")))        // true
        print(today.report.isTruncated, today.report.repairs.map(\.description))     // false ["wrapped orphaned objects under \"articles\""]
        return (today.value.articles.count, today.report.contains(.wrappedOrphanedObjects(key: "articles")),
                today.report.isTruncated, today.report.repairs.map(\.description))
    }
}
