import Courier
import CourierLLM
import CourierLLMAdapter
import CourierSandbox
import Foundation
import IntegrationTestSupport
import Testing

/// `OllamaStream.partials(_:as:client:)` against the sandbox's Ollama generate and chat stand-ins.
@Suite("Ollama-style NDJSON partials")
struct OllamaPartialsTests {
    func generate(_ sandbox: RunningSandbox, prompt: String = overviewPrompt, stream: Bool = true, query: [String: String] = [:]) throws
        -> TestEndpoint
    {
        try llmEndpoint(sandbox, "/llm/ollama/api/generate", query: query, body: ["model": "llama3.2", "prompt": prompt, "stream": stream])
    }

    @Test("the lines concatenate to the non-streamed answer; partials grow and end in its whole-answer decode")
    func partialsGrowToTheWholeAnswer() async throws {
        try await withSandbox { sandbox, client throws in
            let answer = try await text(of: OllamaStream.pieces(generate(sandbox), client: client))
            let unstreamed = try await client.request(generate(sandbox, stream: false), as: OllamaStream.Line.self)
            #expect(answer == unstreamed.response && unstreamed.done == true)
            #expect(answer.contains("```json"))
            let updates = try await timedUpdates(OllamaStream.partials(generate(sandbox), as: StreamedOverview.self, client: client))
            let partials = try expectGrowingPartials(updates, answer: answer)
            #expect(partials >= 10)
            #expect(updates.last?.update.value?.symbol == "BTC")
        }
    }

    @Test("the chat shape's message.content gives the same partials and value")
    func chatShape() async throws {
        try await withSandbox { sandbox, client throws in
            let endpoint = try llmEndpoint(
                sandbox, "/llm/ollama/api/chat",
                body: ["model": "llama3.2", "messages": [["role": "user", "content": overviewPrompt]], "stream": true])
            let answer = try await text(of: OllamaStream.pieces(endpoint, client: client))
            let generated = try await text(of: OllamaStream.pieces(generate(sandbox), client: client))
            #expect(answer == generated)
            let updates = try await timedUpdates(OllamaStream.partials(endpoint, as: StreamedOverview.self, client: client))
            #expect(try expectGrowingPartials(updates, answer: answer) >= 10)
        }
    }

    @Test("partials arrive while tokens are still being sent")
    func partialsArriveBeforeTheEnd() async throws {
        try await withSandbox { sandbox, client throws in
            let updates = try await timedUpdates(
                OllamaStream.partials(generate(sandbox, query: ["tokenDelayMs": "10"]), as: StreamedOverview.self, client: client))
            let first = try #require(updates.first { $0.update.snapshot != nil })
            let last = try #require(updates.last)
            #expect(last.update.value != nil)
            #expect(last.at - first.at >= .milliseconds(300))
        }
    }

    @Test("an error line mid-stream ends the stream with remoteError(200, its message)")
    func errorLine() async throws {
        try await withSandbox { sandbox, client throws in
            var partials = 0
            let error = await failure {
                for try await update in try OllamaStream.partials(
                    generate(sandbox, query: ["failAfter": "40"]), as: StreamedOverview.self, client: client)
                where update.snapshot != nil {
                    partials += 1
                }
            }
            #expect(error == .remoteError(200, "an error was encountered while running the model: unexpected EOF"))
            #expect(partials > 0)
        }
    }

    @Test("an answer longer than maxResponseBytes is refused with responseTooLarge")
    func tooLarge() async throws {
        try await withSandbox { sandbox throws in
            var configuration = NetworkClient.Configuration()
            configuration.maxResponseBytes = 4096
            let client = NetworkClient(configuration: configuration)
            await #expect(throws: NetworkError.responseTooLarge(limit: 4096)) {
                for try await _ in OllamaStream.partials(try generate(sandbox, prompt: "#tokens:2000"), as: StreamedOverview.self, client: client) {}
            }
        }
    }

    @Test("a stream that ends before \"done\": true is invalidResponse, not a shorter answer")
    func cutBeforeDone() async throws {
        try await withSandbox { sandbox, client throws in
            // `/ndjson`'s records have neither text nor `done`.
            let records = TestEndpoint(sandbox.baseURL, "/ndjson", query: ["count": "3"])
            await #expect(throws: NetworkError.invalidResponse) {
                for try await _ in OllamaStream.pieces(records, client: client) {}
            }
        }
    }
}
