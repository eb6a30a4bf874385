import Courier
import CourierLLM
import CourierLLMAdapter
import CourierSandbox
import CourierTransfers
import Foundation
import IntegrationTestSupport
import Testing

/// Typed server-sent events decoded through CourierLLM's tolerant decoding — the Alan API streams
/// Python-style dicts (single quotes, an apostrophe inside the text), not JSON.
@Suite("Server-sent events + CourierLLM")
struct EventStreamLLMTests {
    struct Frame: Decodable, Sendable, Equatable {
        struct Payload: Decodable, Sendable, Equatable { var content: String }
        var type: String
        var data: Payload
    }

    @Test("pseudo-JSON event data decodes through LLMResponseDecoding, apostrophes and all")
    func pythonDicts() async throws {
        try await withSandbox { sandbox in
            let stream = """
                event: response
                data: {'type': 'continue', 'data': {'content': '안'}}

                event: response
                data: {'type': 'complete', 'data': {'content': "It's 안녕"}}


                """
            let endpoint = TestEndpoint(
                baseURL: sandbox.baseURL, path: "/sse/echo", method: .post,
                task: .requestData(Data(stream.utf8), contentType: "text/plain"))
            var frames: [Frame] = []
            for try await event in NetworkClient().events(endpoint, as: Frame.self, decoding: LLMResponseDecoding()) {
                #expect(event.event == "response")
                frames.append(event.value)
            }
            #expect(frames == [Frame(type: "continue", data: .init(content: "안")), Frame(type: "complete", data: .init(content: "It's 안녕"))])
        }
    }
}
