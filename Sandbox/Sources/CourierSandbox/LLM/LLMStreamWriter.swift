import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Writes one answer as OpenAI's chat completions or Ollama's generate and chat stream it, token
/// by token (see ``LLMRoutes``).
struct LLMStreamWriter: Sendable {
    /// The API whose framing is written.
    enum Shape: Sendable {
        case openAIChat, ollamaGenerate, ollamaChat

        var contentType: String { self == .openAIChat ? "text/event-stream" : "application/x-ndjson" }
    }

    let shape: Shape
    let model: String
    let tokens: [String]
    let tokenDelayMs: Int
    /// Tokens before the error frame; nil for none.
    let failAfter: Int?

    /// Frames are written in batches of this many when there is no pause between tokens.
    static let batch = 64
    static let created = 1_700_000_000
    static let createdAt = "2023-11-14T22:13:20Z"
    static let openAIFailure = "The server had an error while processing your request. Sorry about that!"
    static let ollamaFailure = "an error was encountered while running the model: unexpected EOF"

    func write(to writer: inout any ResponseBodyWriter) async throws {
        var pending = ""
        if shape == .openAIChat { pending += event(chunk(["role": "assistant", "content": ""], finish: nil)) }
        for (index, token) in tokens.enumerated() {
            if index == failAfter { break }
            pending += frame(token)
            if tokenDelayMs > 0 || (index + 1) % Self.batch == 0 {
                try await writer.write(ByteBuffer(string: pending))
                pending = ""
                if tokenDelayMs > 0 { try await Task.sleep(for: .milliseconds(tokenDelayMs)) }
            }
        }
        if let failAfter, failAfter <= tokens.count {
            pending += failure()
        } else {
            pending += last()
        }
        try await writer.write(ByteBuffer(string: pending))
    }

    /// The answer of a call without `"stream": true` (OpenAI) or with `"stream": false` (Ollama).
    func whole() -> Data {
        let text = tokens.joined()
        switch shape {
        case .openAIChat:
            return json([
                "id": "chatcmpl-sandbox", "object": "chat.completion", "created": Self.created, "model": model,
                "choices": [["index": 0, "message": ["role": "assistant", "content": text], "finish_reason": "stop"]],
                "usage": ["prompt_tokens": 0, "completion_tokens": tokens.count, "total_tokens": tokens.count],
            ])
        case .ollamaGenerate, .ollamaChat:
            return json(ollamaLine(text, done: true))
        }
    }

    /// The frame of one token.
    func frame(_ token: String) -> String {
        switch shape {
        case .openAIChat: event(chunk(["content": token], finish: nil))
        case .ollamaGenerate, .ollamaChat: line(ollamaLine(token, done: false))
        }
    }

    /// The frames after the last token.
    func last() -> String {
        switch shape {
        case .openAIChat: event(chunk([:], finish: "stop")) + "data: [DONE]\n\n"
        case .ollamaGenerate, .ollamaChat: line(ollamaLine("", done: true))
        }
    }

    /// The error frame, as the service sends one after the head.
    func failure() -> String {
        switch shape {
        case .openAIChat:
            event(["error": ["message": Self.openAIFailure, "type": "server_error", "param": NSNull(), "code": NSNull()]])
        case .ollamaGenerate, .ollamaChat: line(["error": Self.ollamaFailure])
        }
    }

    func chunk(_ delta: [String: Any], finish: String?) -> [String: Any] {
        [
            "id": "chatcmpl-sandbox", "object": "chat.completion.chunk", "created": Self.created, "model": model,
            "choices": [["index": 0, "delta": delta, "finish_reason": finish.map { $0 as Any } ?? NSNull()]],
        ]
    }

    func ollamaLine(_ text: String, done: Bool) -> [String: Any] {
        var object: [String: Any] = ["model": model, "created_at": Self.createdAt, "done": done]
        if shape == .ollamaChat {
            object["message"] = ["role": "assistant", "content": text]
        } else {
            object["response"] = text
        }
        if done {
            object["done_reason"] = "stop"
            object["eval_count"] = tokens.count
        }
        return object
    }

    func event(_ object: [String: Any]) -> String { "data: " + String(decoding: json(object), as: UTF8.self) + "\n\n" }
    func line(_ object: [String: Any]) -> String { String(decoding: json(object), as: UTF8.self) + "\n" }

    func json(_ object: [String: Any]) -> Data {
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
    }

    /// An error status with `message` in the service's error shape.
    static func error(_ message: String, shape: Shape, status: HTTPResponse.Status) -> Response {
        let object: [String: Any] =
            shape == .openAIChat
            ? ["error": ["message": message, "type": "invalid_request_error", "param": NSNull(), "code": NSNull()]] : ["error": message]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return JSONResponse.raw(data, status: status)
    }
}
