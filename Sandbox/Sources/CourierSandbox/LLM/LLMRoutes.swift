import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Stand-ins for two other LLM APIs' streams under `/llm/`: OpenAI's chat completions (server-sent
/// events) and Ollama's generate and chat (NDJSON). Point a client's base URL at
/// `http://127.0.0.1:PORT/llm/openai/v1` or `…/llm/ollama`.
///
/// | route | answer |
/// |---|---|
/// | `POST /llm/openai/v1/chat/completions?tokenDelayMs=&failAfter=` with `{"model","messages":[{"role","content"}],"stream"}` | `"stream": true`: `text/event-stream` of `data: {chat.completion.chunk}` events — the role, then a `choices[0].delta.content` per token, then `finish_reason: "stop"` — and `data: [DONE]`; otherwise one `chat.completion` JSON |
/// | `POST /llm/ollama/api/generate?tokenDelayMs=&failAfter=` with `{"model","prompt","stream"}` | `application/x-ndjson`: `{"model","created_at","response":token,"done":false}` per token, then `{"response":"","done":true,"done_reason":"stop",…}`; with `"stream": false` that last line alone, `response` the whole answer, as `application/json` |
/// | `POST /llm/ollama/api/chat?tokenDelayMs=&failAfter=` with `{"model","messages","stream"}` | as `generate`, each line's text in `message.content` (`{"role":"assistant","content":token}`) |
///
/// The answer is the last user message's (or the prompt's) as ``AlanModel`` answers it, where that
/// is JSON: the coin report's prompts get the coin answers (with `#breakage:NAME`), `#tokens:N`
/// an answer of N tokens; any other prompt gets the coin overview of its subject in a
/// ```` ```json ```` fence between prose (the messy shape real models answer in). Tokens are up to
/// three characters, `tokenDelayMs` apart (0…10 000, default 0).
///
/// `failAfter=K` fails the stream after K tokens as the services do once the head is out: OpenAI's
/// `data: {"error":{"message","type":"server_error",…}}` event, Ollama's `{"error":"…"}` line,
/// then the end of the body (no `[DONE]`, no `"done": true`). A body not declared
/// `application/json` is 415, one that is not such JSON 400, both in the service's error shape; a parameter that is present but wrong is 400. Streams run inside
/// `Request.untilClientLeaves` and answer `Connection: close`.
struct LLMRoutes: SandboxRouteGroup {
    /// Request bodies larger than this are refused with 413.
    static let maxBodyBytes = 1024 * 1024

    func register(on router: Router<SandboxRequestContext>) async throws {
        router.post("/llm/openai/v1/chat/completions") { request, context in
            try await Self.answer(request, context: context, shape: .openAIChat)
        }
        router.post("/llm/ollama/api/generate") { request, context in
            try await Self.answer(request, context: context, shape: .ollamaGenerate)
        }
        router.post("/llm/ollama/api/chat") { request, context in
            try await Self.answer(request, context: context, shape: .ollamaChat)
        }
    }

    static func answer(_ request: Request, context: SandboxRequestContext, shape: LLMStreamWriter.Shape) async throws -> Response {
        guard JSONMediaType.matches(request.headers[.contentType]) else {
            return LLMStreamWriter.error("the body must be application/json", shape: shape, status: .unsupportedMediaType)
        }
        let query = QueryReader(request)
        let tokenDelayMs = try query.integer("tokenDelayMs", in: 0...10_000, default: 0)
        let failAfter = try query.integer("failAfter", in: 0...Int.max)
        var request = request
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: maxBodyBytes)
        } catch is NIOTooManyBytesError {
            throw HTTPError(.contentTooLarge, message: "at most \(maxBodyBytes) bytes")
        }
        guard let object = try? JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any],
            let prompt = prompt(in: object, shape: shape)
        else {
            let message = shape == .openAIChat ? "'messages' must be an array of {role, content}" : "a JSON body with a prompt is required"
            return LLMStreamWriter.error(message, shape: shape, status: .badRequest)
        }
        // OpenAI streams only when asked; Ollama unless told not to.
        let streaming = (object["stream"] as? Bool) ?? (shape != .openAIChat)
        let writer = LLMStreamWriter(
            shape: shape, model: object["model"] as? String ?? "sandbox", tokens: Self.tokens(answering: prompt),
            tokenDelayMs: tokenDelayMs, failAfter: failAfter)
        guard streaming else { return JSONResponse.raw(writer.whole()) }
        let watched = request
        return Response(
            status: .ok, headers: [.contentType: shape.contentType, .cacheControl: "no-cache", .connection: "close"],
            body: ResponseBody { bodyWriter in
                try await watched.untilClientLeaves(context) { try await writer.write(to: &bodyWriter) }
                try await bodyWriter.finish(nil)
            })
    }

    /// The text asked: the last user message (chat) or the prompt (generate).
    static func prompt(in object: [String: Any], shape: LLMStreamWriter.Shape) -> String? {
        if shape == .ollamaGenerate { return object["prompt"] as? String }
        guard let messages = object["messages"] as? [[String: Any]] else { return nil }
        return messages.last { $0["role"] as? String == "user" }?["content"] as? String ?? ""
    }

    /// The answer's tokens: ``AlanModel``'s where it answers JSON, else the coin overview in a fence.
    static func tokens(answering prompt: String) -> [String] {
        if AlanModel.marker("#tokens:", in: prompt) != nil || AlanModel.kind(of: prompt) != .other {
            return AlanModel.answer(to: prompt, turn: 1).tokens
        }
        let subject = AlanModel.subject(of: prompt)
        return AlanModel.tokens(of: CoinAnswers.overview(subject: subject, breakage: AlanModel.breakage(in: prompt) ?? .fence))
    }
}
