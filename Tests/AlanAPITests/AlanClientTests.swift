import AlanAPI
import Courier
import CourierSandbox
import CourierTesting
import Foundation
import IntegrationTestSupport
import Testing

/// The Alan client against the sandbox's stand-in, over real sockets.
@Suite("Alan client")
struct AlanClientTests {
    @Test("ask: GET /api/v1/question answers action and content")
    func ask() async throws {
        try await withSandbox { sandbox throws in
            let answer = try await alanClient(sandbox).ask("비트코인이 뭐야? 10% & +α")
            #expect(answer.action.speak == "질문의 의도를 이해하고 있어요.")
            #expect(answer.content.contains("비트코인이 뭐야? 10% & +α"))  // the prompt survived percent-encoding
            #expect(answer.content.contains("1번째 질문"))
            #expect(try await stats(sandbox).questions == 1)
        }
    }

    @Test("stream: Python-dict frames with apostrophes and footnotes decode; complete is the whole answer, once")
    func stream() async throws {
        try await withSandbox { sandbox throws in
            let events = try await collect(alanClient(sandbox).stream("오늘 시장 어때?"))
            guard case .progress(let sentence) = events.first else {
                Issue.record("no progress sentence first: \(events.prefix(2))")
                return
            }
            #expect(sentence == "질문의 의도를 이해하고 있어요.")
            let tokens = events.compactMap { event -> String? in
                if case .token(let token) = event { return token }
                return nil
            }
            let completes = events.compactMap { event -> String? in
                if case .complete(let text) = event { return text }
                return nil
            }
            #expect(tokens.count > 10)
            #expect(completes.count == 1)
            #expect(events.last == .complete(tokens.joined()))
            let answer = try #require(completes.first)
            #expect(answer.contains("it's a deterministic stand-in"))
            #expect(answer.hasSuffix("^[490]^"))
            // A consumer that follows the documented rule (complete replaces) shows the answer once.
            var shown = ""
            for event in events {
                switch event {
                case .progress: break
                case .token(let token): shown += token
                case .complete(let whole): shown = whole
                }
            }
            #expect(shown == answer)
            #expect(try await stats(sandbox).streams == 1)
        }
    }

    @Test("stream: a coin answer whose text holds quotes, apostrophes and newlines arrives intact")
    func streamCoinAnswer() async throws {
        try await withSandbox { sandbox throws in
            let alan = alanClient(sandbox)
            let events = try await collect(alan.stream(CoinPrompts.weekly(for: Coin(symbol: "BTC"))))
            guard case .complete(let streamed)? = events.last else {
                Issue.record("no complete at the end")
                return
            }
            let asked = try await alan.ask(CoinPrompts.weekly(for: Coin(symbol: "BTC")))
            #expect(streamed == asked.content)
            #expect(streamed.contains("'저가 매수'") && streamed.contains("\"priceTrend\""))
        }
    }

    @Test("reset: DELETE /api/v1/reset-state starts the conversation over")
    func reset() async throws {
        try await withSandbox { sandbox throws in
            let alan = alanClient(sandbox, clientID: "resetting-client")
            _ = try await alan.ask("하나")
            let second = try await alan.ask("둘")
            #expect(second.content.contains("2번째 질문"))
            #expect(try await stats(sandbox, clientID: "resetting-client").conversationTurns == 2)
            try await alan.reset()
            #expect(try await stats(sandbox, clientID: "resetting-client").conversationTurns == 0)
            #expect(try await alan.ask("셋").content.contains("1번째 질문"))
        }
    }

    @Test("401 after the quota is quotaExceeded(401), for ask and stream")
    func quota() async throws {
        try await withSandbox { sandbox throws in
            try await control(sandbox, .init(quota: 1))
            let alan = alanClient(sandbox)
            _ = try await alan.ask("첫 질문")
            await #expect(throws: NetworkError.quotaExceeded(401)) { try await alan.ask("두 번째") }
            await #expect(throws: NetworkError.quotaExceeded(401)) { try await collect(alan.stream("세 번째")) }
            #expect(try await stats(sandbox).quotaRefusals == 2)
        }
    }

    @Test("500 resets the conversation and asks once more; a second 500 is thrown")
    func serverErrorRetry() async throws {
        try await withSandbox { sandbox throws in
            let alan = alanClient(sandbox)
            try await control(sandbox, .init(failNext: 1))
            let answer = try await alan.ask("한 번 실패")
            #expect(answer.content.contains("1번째 질문"))
            var counters = try await stats(sandbox)
            #expect(counters.injectedFailures == 1 && counters.resets == 1 && counters.questions == 1)

            try await control(sandbox, .init(failNext: 2))
            await #expect(throws: NetworkError.serverError(500)) { try await alan.ask("두 번 실패") }
            counters = try await stats(sandbox)
            #expect(counters.injectedFailures == 3 && counters.resets == 2)  // one retry, not more

            try await control(sandbox, .init(failNext: 1))
            let events = try await collect(alan.stream("스트림도 한 번 실패"))
            #expect(events.count > 2)
            counters = try await stats(sandbox)
            #expect(counters.injectedFailures == 4 && counters.resets == 3 && counters.streams == 1)
        }
    }

    @Test("a prompt whose URL would exceed the limit is uriTooLong before any request")
    func uriTooLongEarly() async throws {
        try await withSandbox { sandbox throws in
            let alan = alanClient(sandbox)
            let prompt = String(repeating: "가", count: 1000)  // 9 000 bytes once percent-encoded
            let length = try alan.requestURLLength(for: prompt)
            #expect(length > AlanClient.defaultMaxURLLength)
            await #expect(throws: NetworkError.uriTooLong(414)) { try await alan.ask(prompt) }
            await #expect(throws: NetworkError.uriTooLong(414)) { try await collect(alan.stream(prompt)) }
            #expect(alan.uriTooLongMessage(length: length).contains("8192-byte limit"))
            let afterLong = try await stats(sandbox)
            #expect(afterLong.requests == 0)
            // A smaller configured limit applies to short prompts too.
            let strict = alanClient(sandbox, maxURLLength: 100)
            await #expect(throws: NetworkError.uriTooLong(414)) { try await strict.ask("짧지만 한도가 더 짧아요") }
            let afterStrict = try await stats(sandbox)
            #expect(afterStrict.requests == 0)
        }
    }

    @Test("the service's own 414 for a long URI maps to uriTooLong")
    func uriTooLongFromServer() async throws {
        try await withSandbox { sandbox throws in
            let alan = alanClient(sandbox, maxURLLength: 1_000_000)
            await #expect(throws: NetworkError.uriTooLong(414)) { try await alan.ask(String(repeating: "나", count: 1000)) }
            let counters = try await stats(sandbox)
            #expect(counters.requests == 1)
        }
    }

    @Test("a task without a key is invalidAPIKey before any request; each task uses its own key")
    func missingKey() async throws {
        try await withSandbox { sandbox throws in
            let alan = alanClient(sandbox, keys: AlanClientIDs([.coinReport: "report-key"]))
            await #expect(throws: NetworkError.invalidAPIKey) { try await alan.ask("질문", task: .dashboardBriefing) }
            await #expect(throws: NetworkError.invalidAPIKey) { try await collect(alan.stream("질문", task: .general)) }
            await #expect(throws: NetworkError.invalidAPIKey) { try await alan.reset(task: .bookmarkSuggestion) }
            #expect(try await stats(sandbox).requests == 0)
            _ = try await alan.ask("리포트", task: .coinReport)
            #expect(try await stats(sandbox, clientID: "report-key").quotaUsed == 1)
        }
    }

    @Test("a missing parameter is FastAPI's 422 detail")
    func missingParameter() async throws {
        try await withSandbox { sandbox throws in
            let endpoint = TestEndpoint(
                baseURL: alanRoot(sandbox), path: "/api/v1/question",
                task: .requestParameters(["client_id": "k-1234"], encoding: .url), statusMapping: .alan)
            let error = await #expect(throws: NetworkError.self) { try await NetworkClient().response(endpoint) }
            guard case .remoteError(422, let body)? = error else {
                Issue.record("expected remoteError(422, …), got \(String(describing: error))")
                return
            }
            #expect(body.contains("\"loc\":[\"query\",\"content\"]") && body.contains("\"msg\":\"Field required\""))
        }
    }
}
