import Courier
import CourierLLM
import CourierLLMAdapter
import CourierSandbox
import Foundation
import IntegrationTestSupport
import Testing

/// `request(_:as:)` decodes LLM answers through CourierLLM when the endpoint says so — over a real
/// server: the sandbox's echo route returns the answer we send inside its `body` field.
@Suite("NetworkClient + CourierLLM")
struct NetworkClientLLMTests {
    /// The sandbox's echo of `answer`, decoded from its `body` field as an LLM answer.
    func answerEndpoint(baseURL: URL, answer: String) -> TestEndpoint {
        TestEndpoint(
            baseURL: baseURL, path: "/echo", method: .post,
            task: .requestData(Data(answer.utf8), contentType: "text/plain; charset=utf-8"),
            decoding: LLMResponseDecoding(keyPath: ["body"]))
    }

    @Test("a fenced, cited answer decodes; a refusal becomes modelRefusal with the model's text")
    func throughTheClient() async throws {
        let sandbox = try await SandboxServer.start()
        let client = NetworkClient()
        let messy = """
            이번 주 분석입니다.
            ```json
            {"priceTrend": "상승세 [(출처133)](https://news.example.com/1)", 'volumeChange': "+12%", "reason": "ETF 승인 기대",}
            ```
            참고하세요.
            """
        let weekly = try await client.request(answerEndpoint(baseURL: sandbox.baseURL, answer: messy), as: CoinWeekly.self)
        #expect(weekly.volumeChange == "+12%")
        #expect(weekly.reason == "ETF 승인 기대")
        let refusal = "현재 요청하신 정보를 제공하는 데 어려움이 있습니다."
        do {
            _ = try await client.request(answerEndpoint(baseURL: sandbox.baseURL, answer: refusal), as: CoinWeekly.self)
            Issue.record("expected a refusal")
        } catch {
            #expect(error == .modelRefusal(refusal))
            #expect(error.userMessage(in: .korean) == refusal)
        }
        await sandbox.stop()
    }
}
