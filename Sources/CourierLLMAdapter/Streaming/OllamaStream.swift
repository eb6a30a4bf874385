public import Courier
public import CourierLLM
public import CourierTransfers

/// Ollama's streamed answers (`/api/generate`, `/api/chat` with `"stream": true`): NDJSON lines
/// read as they arrive, as text pieces or as a value decoded while it grows.
///
/// ```swift
/// for try await update in OllamaStream.partials(Ollama.generate(prompt), as: Recipe.self, client: client) {
///     if let draft = update.snapshot?.decode(Recipe.Partial.self).value { show(draft) }
///     if let recipe = update.value { show(recipe) }
/// }
/// ```
public enum OllamaStream {
    /// The typed partials of ``partials(_:as:client:schema:options:)``.
    public typealias Partials<T: Decodable & Sendable> = LLMPartialStream<LLMTextPieces<JSONLineStream<Line>>, T>

    /// The answer text of an Ollama-style NDJSON stream (`/api/generate`'s `response`, or
    /// `/api/chat`'s `message.content`, line by line, see ``Line``), until the line with
    /// `"done": true`. Lines without text are skipped.
    ///
    /// A line `{"error":"…"}` (what Ollama sends when a stream fails after its head) ends the stream
    /// with `NetworkError.remoteError(200, message)`; a line that is not such JSON with
    /// `NetworkError.decodingError`; a stream that ends before `"done": true` with
    /// `NetworkError.invalidResponse`; an answer over the client's `maxResponseBytes` with
    /// `NetworkError.responseTooLarge`. Otherwise as the client's `jsonLines(_:as:decoding:options:)`.
    ///
    /// ```swift
    /// for try await piece in OllamaStream.pieces(Ollama.generate(prompt), client: client) {
    ///     if case .delta(let text) = piece { print(text, terminator: "") }
    /// }
    /// ```
    public static func pieces(
        _ endpoint: some Endpoint, client: NetworkClient, options: ByteStreamOptions = ByteStreamOptions()
    ) -> LLMTextPieces<JSONLineStream<Line>> {
        // The lines are the API's framing, plain JSON whatever the endpoint decodes its answers with.
        let lines = client.jsonLines(endpoint, as: Line.self, decoding: JSONResponseDecoding(), options: options)
        return LLMTextPieces(lines, limit: client.configuration.maxResponseBytes) { line throws(NetworkError) in
            if let error = line.error { throw .remoteError(200, error) }
            return .init(text: line.text, ends: line.done == true)
        }
    }

    /// An Ollama-style NDJSON stream decoded as `T` while its lines arrive: a
    /// `.partial(snapshot, restart:)` each time the JSON decoded so far changes, then
    /// `.complete(value)` — the value a whole-answer decode of the concatenated text gives
    /// (``LLMResponseDecoding``, with the client's decoder). Fails as
    /// ``pieces(_:client:options:)``; an answer without JSON ends in `NetworkError.modelRefusal`.
    public static func partials<T: Decodable & Sendable>(
        _ endpoint: some Endpoint, as type: T.Type, client: NetworkClient, schema: JSONSchema? = nil,
        options: ByteStreamOptions = ByteStreamOptions()
    ) -> Partials<T> {
        LLMPartialStream(
            pieces(endpoint, client: client, options: options), as: T.self, schema: schema, decoder: client.configuration.decoder,
            maxAnswerBytes: client.configuration.maxResponseBytes)
    }
}

extension OllamaStream {
    /// One line of an Ollama-style NDJSON stream, as ``OllamaStream/pieces(_:client:options:)``
    /// reads it: `/api/generate`'s `{"model":…,"response":"…","done":false}`, `/api/chat`'s
    /// `{"message":{"role":"assistant","content":"…"},"done":false}`, the last line's
    /// `"done":true`, or `{"error":"…"}`. Other members (timings, `context`) are ignored.
    public struct Line: Decodable, Sendable, Equatable {
        /// The chat shape's message.
        public struct Message: Decodable, Sendable, Equatable {
            /// The next characters of the answer.
            public var content: String?
        }

        /// The next characters of the answer (`/api/generate`).
        public var response: String?
        /// The next characters of the answer (`/api/chat`).
        public var message: Message?
        /// Whether this is the last line.
        public var done: Bool?
        /// Why the stream failed.
        public var error: String?

        /// The text of this line: the `response`, else the `message`'s `content`.
        public var text: String { response ?? message?.content ?? "" }
    }
}
