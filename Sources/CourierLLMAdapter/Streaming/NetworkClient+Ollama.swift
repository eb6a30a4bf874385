public import Courier
public import CourierLLM
public import CourierTransfers

extension NetworkClient {
    /// The answer text of an Ollama-style NDJSON stream (`/api/generate`'s `response`, or
    /// `/api/chat`'s `message.content`, line by line, see ``OllamaStreamLine``), until the line
    /// with `"done": true`. Lines without text are skipped.
    ///
    /// A line `{"error":"…"}` (what Ollama sends when a stream fails after its head) ends the stream
    /// with `NetworkError.remoteError(200, message)`; a line that is not such JSON with
    /// `NetworkError.decodingError`; a stream that ends before `"done": true` with
    /// `NetworkError.invalidResponse`; an answer over the client's `maxResponseBytes` with
    /// `NetworkError.responseTooLarge`. Otherwise as `jsonLines(_:as:decoding:options:)`.
    ///
    /// ```swift
    /// for try await piece in client.ollamaPieces(Ollama.generate(prompt)) {
    ///     if case .delta(let text) = piece { print(text, terminator: "") }
    /// }
    /// ```
    public func ollamaPieces(
        _ endpoint: some Endpoint, options: ByteStreamOptions = ByteStreamOptions()
    ) -> LLMTextPieces<JSONLineStream<OllamaStreamLine>> {
        // The lines are the API's framing, plain JSON whatever the endpoint decodes its answers with.
        let lines = jsonLines(endpoint, as: OllamaStreamLine.self, decoding: JSONResponseDecoding(), options: options)
        return LLMTextPieces(lines, limit: configuration.maxResponseBytes) { line throws(NetworkError) in
            if let error = line.error { throw .remoteError(200, error) }
            return .init(text: line.text, ends: line.done == true)
        }
    }

    /// An Ollama-style NDJSON stream decoded as `T` while its lines arrive: a
    /// `.partial(snapshot, restart:)` each time the JSON decoded so far changes, then
    /// `.complete(value)` — the value a whole-answer decode of the concatenated text gives
    /// (``LLMResponseDecoding``, with the client's decoder). Fails as
    /// `ollamaPieces(_:options:)`; an answer without JSON ends in `NetworkError.modelRefusal`.
    ///
    /// ```swift
    /// for try await update in client.ollamaPartials(Ollama.generate(prompt), as: Recipe.self) {
    ///     if let draft = update.snapshot?.decode(Recipe.Partial.self).value { show(draft) }
    ///     if let recipe = update.value { show(recipe) }
    /// }
    /// ```
    public func ollamaPartials<T: Decodable & Sendable>(
        _ endpoint: some Endpoint, as type: T.Type, schema: JSONSchema? = nil, options: ByteStreamOptions = ByteStreamOptions()
    ) -> OllamaPartialStream<T> {
        LLMPartialStream(
            ollamaPieces(endpoint, options: options), as: T.self, schema: schema, decoder: configuration.decoder,
            maxAnswerBytes: configuration.maxResponseBytes)
    }
}

/// The typed partials of `ollamaPartials(_:as:schema:options:)`.
public typealias OllamaPartialStream<T: Decodable & Sendable> = LLMPartialStream<LLMTextPieces<JSONLineStream<OllamaStreamLine>>, T>
