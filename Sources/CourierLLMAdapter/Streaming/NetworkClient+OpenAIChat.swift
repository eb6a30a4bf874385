public import Courier
public import CourierLLM
public import CourierTransfers
import Foundation

extension NetworkClient {
    /// The answer text of an OpenAI-style chat completion streamed as server-sent events
    /// (`"stream": true`): each event's `choices[0].delta.content` as a delta (a
    /// `delta.refusal` too: a refusal's words end a typed stream in `NetworkError.modelRefusal`),
    /// until `data: [DONE]`. Events without text (the role, `finish_reason`, usage) are skipped;
    /// other fields are ignored.
    ///
    /// An event carrying an `error` object (`{"error":{"message":…,"type":…}}`, what OpenAI and
    /// compatible servers send when a stream fails after its head) ends the stream with
    /// `NetworkError.remoteError(200, message)`; data that is not JSON with
    /// `NetworkError.decodingError`; a stream that ends without `[DONE]` with
    /// `NetworkError.invalidResponse`; an answer over the client's `maxResponseBytes` with
    /// `NetworkError.responseTooLarge`. Otherwise as `events(_:options:)`.
    ///
    /// ```swift
    /// for try await piece in client.openAIChatPieces(OpenAI.chat(messages, stream: true)) {
    ///     if case .delta(let text) = piece { print(text, terminator: "") }
    /// }
    /// ```
    public func openAIChatPieces(_ endpoint: some Endpoint, options: EventStreamOptions = EventStreamOptions()) -> LLMTextPieces<ServerEventStream> {
        LLMTextPieces(events(endpoint, options: options), limit: configuration.maxResponseBytes, read: OpenAIChatChunk.frame(of:))
    }

    /// An OpenAI-style streamed chat completion decoded as `T` while its deltas arrive: a
    /// `.partial(snapshot, restart:)` each time the JSON decoded so far changes, then
    /// `.complete(value)` — the value a whole-answer decode of the concatenated deltas gives
    /// (``LLMResponseDecoding``, with the client's decoder). Fails as
    /// `openAIChatPieces(_:options:)`; an answer without JSON ends in
    /// `NetworkError.modelRefusal`.
    ///
    /// ```swift
    /// for try await update in client.openAIChatPartials(OpenAI.chat(messages, stream: true), as: Recipe.self) {
    ///     if let draft = update.snapshot?.decode(Recipe.Partial.self).value { show(draft) }
    ///     if let recipe = update.value { show(recipe) }
    /// }
    /// ```
    public func openAIChatPartials<T: Decodable & Sendable>(
        _ endpoint: some Endpoint, as type: T.Type, schema: JSONSchema? = nil, options: EventStreamOptions = EventStreamOptions()
    ) -> OpenAIChatPartialStream<T> {
        LLMPartialStream(
            openAIChatPieces(endpoint, options: options), as: T.self, schema: schema, decoder: configuration.decoder,
            maxAnswerBytes: configuration.maxResponseBytes)
    }
}

/// The typed partials of `openAIChatPartials(_:as:schema:options:)`.
public typealias OpenAIChatPartialStream<T: Decodable & Sendable> = LLMPartialStream<LLMTextPieces<ServerEventStream>, T>

/// The members of a `chat.completion.chunk` event the stream reads; the rest is ignored.
struct OpenAIChatChunk: Decodable {
    struct Choice: Decodable {
        struct Delta: Decodable {
            var content: String?
            var refusal: String?
        }
        var index: Int?
        var delta: Delta?
    }

    var choices: [Choice]?
    var error: LLMStreamError?

    /// The text and end of one event.
    @Sendable static func frame(of event: ServerEvent) throws(NetworkError) -> LLMTextPieces<ServerEventStream>.Frame {
        let data = event.data.trimmingCharacters(in: .whitespaces)
        if data == "[DONE]" { return .init(text: "", ends: true) }
        let chunk: OpenAIChatChunk
        do {
            chunk = try JSONDecoder().decode(OpenAIChatChunk.self, from: Data(data.utf8))
        } catch let error as DecodingError {
            throw .decodingError(error)
        } catch {
            throw .invalidResponse
        }
        if let error = chunk.error { throw .remoteError(200, error.message) }
        // With `n` > 1 the choices interleave; the answer is choice 0's.
        let delta = chunk.choices?.first { ($0.index ?? 0) == 0 }?.delta
        return .init(text: (delta?.content ?? "") + (delta?.refusal ?? ""), ends: false)
    }
}

/// An error an LLM API sends inside its stream: an object with a `message` (OpenAI) or a string
/// (Ollama, some OpenAI-compatible servers).
struct LLMStreamError: Decodable, Sendable {
    var message: String

    private enum CodingKeys: String, CodingKey { case message, type, code }

    init(from decoder: any Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            message = text
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        message =
            (try? container.decode(String.self, forKey: .message)) ?? (try? container.decode(String.self, forKey: .type))
            ?? (try? container.decode(String.self, forKey: .code)) ?? "error"
    }
}
