import AlanAPI
import Courier
import CourierLLM
import CourierTesting
import Foundation
import Testing

/// Alan answers nested 100,000 deep — the answer body, the JSON in its content, a stream's
/// frames — end in a value or a `NetworkError`, never a stack overflow (which would end the
/// whole test process).
@Suite("Alan answers nested 100,000 deep")
struct AlanDeepNestingTests {
    static let deep = 100_000
    static let nests = [String(repeating: "[", count: deep), String(repeating: #"{"a":"#, count: deep), String(repeating: "{'a':", count: deep)]

    /// A client whose every call is answered by `stub`.
    func client(_ stub: StubTransport) -> AlanClient {
        AlanClient(
            baseURL: URL(string: "https://alan.test")!, clientIDs: .single("test-client"),
            configuration: .init(transport: stub))
    }

    @Test("an answer body nested 100,000 deep is a decodingError", .timeLimit(.minutes(1)))
    func answerBody() async {
        for nest in Self.nests {
            let stub = StubTransport()
            stub.on(.get, "/api/v1/question", .json(nest))
            await #expect(throws: NetworkError.self) { try await client(stub).ask("질문") }
        }
    }

    @Test("content holding JSON nested 100,000 deep is a refusal or a decodingError", .timeLimit(.minutes(1)))
    func content() async throws {
        for nest in Self.nests {
            let stub = StubTransport()
            let content = String(decoding: try JSONEncoder().encode(nest), as: UTF8.self)
            stub.on(.get, "/api/v1/question", .json(#"{"action":{"name":"","speak":""},"content":\#(content)}"#))
            do {
                _ = try await client(stub).ask("질문", as: CoinWeekly.self)
                Issue.record("decoded a CoinWeekly from \(nest.prefix(12))…")
            } catch {
                switch error {
                case .modelRefusal, .decodingError: break
                default: Issue.record("\(error)")
                }
            }
        }
    }

    @Test("a stream frame nested 100,000 deep ends the stream with a NetworkError", .timeLimit(.minutes(1)))
    func streamFrame() async {
        for nest in Self.nests {
            #expect(throws: NetworkError.self) { try AlanFrame.decoding.decode(AlanFrame.self, from: Data(nest.utf8), using: JSONDecoder()) }
            let stub = StubTransport()
            let events = "event: response\ndata: {'type': 'continue', 'data': {'content': '안'}}\n\nevent: response\ndata: \(nest)\n\n"
            stub.on(.get, "/api/v1/question/sse-streaming", .status(200, body: events, headers: [.contentType: "text/event-stream"]))
            var received: [AlanStreamEvent] = []
            await #expect(throws: NetworkError.self) {
                for try await event in client(stub).stream("질문") { received.append(event) }
            }
            #expect(received == [.token("안")])
        }
    }
}
