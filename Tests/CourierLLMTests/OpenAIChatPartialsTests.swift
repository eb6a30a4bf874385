import Courier
import CourierLLM
import CourierLLMAdapter
import CourierSandbox
import Foundation
import IntegrationTestSupport
import Testing

/// `OpenAIChatStream.partials(_:as:client:)` against the sandbox's OpenAI chat completions stand-in.
@Suite("OpenAI-style SSE partials")
struct OpenAIChatPartialsTests {
    static let path = "/llm/openai/v1/chat/completions"

    func chat(_ sandbox: RunningSandbox, prompt: String = overviewPrompt, stream: Bool = true, query: [String: String] = [:]) throws
        -> TestEndpoint
    {
        try llmEndpoint(
            sandbox, Self.path, query: query,
            body: ["model": "gpt-4o-mini", "messages": [["role": "user", "content": prompt]], "stream": stream])
    }

    struct Completion: Decodable, Sendable {
        struct Choice: Decodable, Sendable {
            struct Message: Decodable, Sendable { var content: String }
            var message: Message
        }
        var choices: [Choice]
    }

    @Test("the deltas concatenate to the non-streamed answer; partials grow and end in its whole-answer decode")
    func partialsGrowToTheWholeAnswer() async throws {
        try await withSandbox { sandbox, client throws in
            let answer = try await text(of: OpenAIChatStream.pieces(chat(sandbox), client: client))
            let unstreamed = try await client.request(chat(sandbox, stream: false), as: Completion.self)
            #expect(answer == unstreamed.choices.first?.message.content)
            #expect(answer.contains("```json"))
            let updates = try await timedUpdates(OpenAIChatStream.partials(chat(sandbox), as: StreamedOverview.self, client: client))
            let partials = try expectGrowingPartials(updates, answer: answer)
            #expect(partials >= 10)
            #expect(updates.last?.update.value?.symbol == "BTC")
        }
    }

    @Test("partials arrive while tokens are still being sent")
    func partialsArriveBeforeTheEnd() async throws {
        try await withSandbox { sandbox, client throws in
            // About 80 tokens 10 ms apart: buffered until the end, the first partial and the
            // complete value would arrive together.
            let updates = try await timedUpdates(
                OpenAIChatStream.partials(chat(sandbox, query: ["tokenDelayMs": "10"]), as: StreamedOverview.self, client: client))
            let first = try #require(updates.first { $0.update.snapshot != nil })
            let last = try #require(updates.last)
            #expect(last.update.value != nil)
            #expect(last.at - first.at >= .milliseconds(300))
        }
    }

    @Test("an error event mid-stream ends the stream with remoteError(200, its message)")
    func errorEvent() async throws {
        try await withSandbox { sandbox, client throws in
            var partials = 0
            let error = await failure {
                for try await update in try OpenAIChatStream.partials(
                    chat(sandbox, query: ["failAfter": "40"]), as: StreamedOverview.self, client: client)
                where update.snapshot != nil {
                    partials += 1
                }
            }
            #expect(error == .remoteError(200, "The server had an error while processing your request. Sorry about that!"))
            #expect(partials > 0)
        }
    }

    @Test("an answer longer than maxResponseBytes is refused with responseTooLarge")
    func tooLarge() async throws {
        try await withSandbox { sandbox throws in
            var configuration = NetworkClient.Configuration()
            configuration.maxResponseBytes = 4096
            let client = NetworkClient(configuration: configuration)
            // 2 000 tokens of 7 bytes each, every event far under the limit.
            await #expect(throws: NetworkError.responseTooLarge(limit: 4096)) {
                for try await _ in OpenAIChatStream.partials(try chat(sandbox, prompt: "#tokens:2000"), as: StreamedOverview.self, client: client) {}
            }
        }
    }

    @Test("a stream that ends without data: [DONE] is invalidResponse, not a shorter answer")
    func cutBeforeDone() async throws {
        try await withSandbox { sandbox, client throws in
            let events = """
                data: {"choices":[{"index":0,"delta":{"content":"{\\"symbol\\": \\"BT"}}]}

                data: {"choices":[{"index":0,"delta":{"content":"C\\"}"}}]}


                """
            let endpoint = TestEndpoint(
                baseURL: sandbox.baseURL, path: "/sse/echo", method: .post, task: .requestData(Data(events.utf8), contentType: "text/plain"))
            await #expect(throws: NetworkError.invalidResponse) {
                for try await _ in OpenAIChatStream.pieces(endpoint, client: client) {}
            }
        }
    }

    @Test("events without content and other choices are skipped; non-JSON data is a decodingError")
    func skipsAndRefusesData() async throws {
        try await withSandbox { sandbox, client throws in
            let events = """
                data: {"choices":[{"index":0,"delta":{"role":"assistant"}}]}

                data: {"choices":[{"index":1,"delta":{"content":"other"}},{"index":0,"delta":{"content":"{\\"a\\":"}}]}

                data: {"choices":[],"usage":{"total_tokens":3}}

                data: {"choices":[{"index":0,"delta":{"content":"1}"},"finish_reason":"stop"}]}

                data: [DONE]

                data: {"choices":[{"index":0,"delta":{"content":"after done"}}]}


                """
            func echo(_ text: String) -> TestEndpoint {
                TestEndpoint(
                    baseURL: sandbox.baseURL, path: "/sse/echo", method: .post, task: .requestData(Data(text.utf8), contentType: "text/plain"))
            }
            #expect(try await text(of: OpenAIChatStream.pieces(echo(events), client: client)) == "{\"a\":1}")
            let error = await #expect(throws: NetworkError.self) {
                for try await _ in OpenAIChatStream.pieces(echo("data: not json\n\n"), client: client) {}
            }
            guard case .decodingError? = error else {
                Issue.record("expected decodingError, got \(String(describing: error))")
                return
            }
        }
    }
}
