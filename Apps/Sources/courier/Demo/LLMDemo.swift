import AlanAPI
import Courier
import CourierLLM
import CourierLLMAdapter
import Foundation

/// The LLM part of `courier demo`: the coin-report seed's broken answers decoded into real types.
enum LLMDemo {
    /// The sandbox's echo route hands back what we send in its `body` field — an LLM stand-in.
    struct AnswerEndpoint: Endpoint {
        var baseURL: URL
        var answer: String
        var path: String { "/echo" }
        var method: HTTPMethod { .post }
        var task: HTTPTask { .requestData(Data(answer.utf8), contentType: "text/plain; charset=utf-8") }
        var responseDecoding: any ResponseDecoding { LLMResponseDecoding(keyPath: ["body"]) }
    }

    static let brokenAnswer = """
        오늘의 시장 분위기를 정리했습니다.
        ```json
        {
          "summaryOfTodaysMarketSentiment": "관망세 속 소폭 반등" [(출처133)](https://news.example.com/133),
          {"title": "비트코인, 9만 달러 회복", "summary": "ETF 자금 유입", "newsSourceURL": "https://news.example.com/1"},
          {"title": 'Ethereum upgrade', "summary": "가스비 인하 기대", "newsSourceURL": "https://news.example.com/2",},
          {"title": "리플 소송 종결", "summary": "규제 불확실성 해소", "newsSourceURL": "https://news.example.com/3"}
        }
        ```
        """
    static let refusal = "현재 요청하신 실시간 뉴스 정보를 제공하는 데 어려움이 있습니다."

    static func run(baseURL: URL, output: @escaping @Sendable (String) -> Void) async -> (steps: Int, failures: Int) {
        output("\n── CourierLLM: the seed's broken answers → CoinTodayNews ──")
        let client = NetworkClient()
        var failures = 0
        do {
            let news = try await client.request(AnswerEndpoint(baseURL: baseURL, answer: brokenAnswer), as: CoinTodayNews.self)
            let report = (try? LLMAnswerDecoder().decode(CoinTodayNews.self, fromAnswer: brokenAnswer).report.repairs.map { "\($0)" }) ?? []
            output(
                "✓ answer with prose, a fence, a citation, single quotes, a trailing comma and a missing \"articles\": [ → \(news.articles.count) articles: \(news.articles.map(\.title).joined(separator: " · "))"
            )
            output("  repairs: \(report.joined(separator: ", "))")
        } catch {
            failures += 1
            output("✗ broken answer → \(error.log(file: "LLMDemo.swift", function: "run"))")
        }
        do {
            _ = try await client.request(AnswerEndpoint(baseURL: baseURL, answer: refusal), as: CoinTodayNews.self)
            failures += 1
            output("✗ a refusal decoded into a value")
        } catch {
            let ok = error == .modelRefusal(refusal)
            if !ok { failures += 1 }
            output(
                "\(ok ? "✓" : "✗") a refusal with no JSON → \(error.caseName), shown as the model's own words: «\(error.userMessage(in: .korean))»")
        }
        return (2, failures)
    }
}
