import CourierTransfers
public import Courier
public import CourierLLM
public import Foundation

/// Typed partial values of an LLM answer streamed as text: each piece fed to CourierLLM's
/// `PartialJSONDecoder` (the whole-answer decoder's repairs, no re-parsing from the start), a
/// ``LLMPartial/partial(_:restart:)`` whenever the JSON decoded so far changes, then one
/// ``LLMPartial/complete(_:)`` with the whole answer decoded as `T` — as ``LLMResponseDecoding``
/// decodes it for a whole-answer call: an answer without JSON ends in
/// `NetworkError.modelRefusal(_:)`, JSON that cannot be a `T` in `NetworkError.decodingError(_:)`.
///
/// The decoder prefers JSON of `T`'s shape (or `schema`, when given) where an answer holds
/// several candidates, as the whole-answer decoder does.
///
/// ```swift
/// let pieces = client.events(chatEndpoint).map { LLMTextPiece.delta($0.value.text) }
/// for try await update in LLMPartialStream(pieces, as: Recipe.self) { … }
/// ```
public struct LLMPartialStream<Base: AsyncSequence & Sendable, T: Decodable & Sendable>: AsyncSequence, Sendable
where Base.Element == LLMTextPiece, Base.Failure == NetworkError {
    /// Partial snapshots, then the complete value.
    public typealias Element = LLMPartial<T>
    /// Every failure is a `NetworkError`.
    public typealias Failure = NetworkError

    let base: Base
    let schema: JSONSchema?
    let decoder: JSONDecoder
    let maxAnswerBytes: Int

    /// Partials of `T` from the text pieces of `base`; `decoder` decodes the final value (its
    /// strategies apply as in `request(_:as:)`). An answer over `maxAnswerBytes` UTF-8 bytes
    /// ends the stream with `NetworkError.responseTooLarge(limit:)` (the client's
    /// `maxResponseBytes` when a `NetworkClient` makes the stream; 16 MiB by default).
    public init(
        _ base: Base, as type: T.Type, schema: JSONSchema? = nil, decoder: JSONDecoder = JSONDecoder(),
        maxAnswerBytes: Int = CallLimits.defaultMaxResponseBytes
    ) {
        self.base = base
        self.schema = schema
        self.decoder = decoder
        self.maxAnswerBytes = maxAnswerBytes
    }

    /// An iterator over the partials.
    public func makeAsyncIterator() -> Iterator {
        let schema = schema ?? JSONSchema.inferred(from: T.self)
        return Iterator(
            base: base.makeAsyncIterator(), schema: schema, explicitSchema: self.schema, decoder: decoder, maxAnswerBytes: maxAnswerBytes)
    }

    /// Reads pieces until the decoded value changes.
    public struct Iterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let schema: JSONSchema?
        let explicitSchema: JSONSchema?
        let decoder: JSONDecoder
        let maxAnswerBytes: Int
        var partial: PartialJSONDecoder
        var text = ""
        var whole: String?
        var finished = false

        init(base: Base.AsyncIterator, schema: JSONSchema?, explicitSchema: JSONSchema?, decoder: JSONDecoder, maxAnswerBytes: Int) {
            self.base = base
            self.maxAnswerBytes = maxAnswerBytes
            self.schema = schema
            self.explicitSchema = explicitSchema
            self.decoder = decoder
            self.partial = PartialJSONDecoder(schema: schema)
        }

        /// An answer over `maxAnswerBytes` ends the stream: the text and the decoder's copy of it
        /// grow with every piece, and a server that never stops must not grow them without end.
        private mutating func checkSize(_ bytes: Int) throws(NetworkError) {
            guard bytes <= maxAnswerBytes else {
                finished = true
                throw .responseTooLarge(limit: maxAnswerBytes)
            }
        }

        /// The next partial, the complete value, or nil after it.
        public mutating func next() async throws(NetworkError) -> LLMPartial<T>? {
            try await next(isolation: nil)
        }

        /// The next partial, the complete value, or nil after it (on `actor`).
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(NetworkError) -> LLMPartial<T>? {
            guard !finished else { return nil }
            while let piece = try await base.next(isolation: actor) {
                switch piece {
                case .delta(let delta):
                    guard whole == nil, !delta.isEmpty else { continue }
                    try checkSize(text.utf8.count + delta.utf8.count)
                    text += delta
                    if let update = partial.feed(delta) { return .partial(update.snapshot, restart: update.isRestart) }
                case .whole(let answer):
                    guard answer != text, whole == nil else { continue }
                    try checkSize(answer.utf8.count)
                    whole = answer
                    if let update = partial.replaceText(with: answer) { return .partial(update.snapshot, restart: update.isRestart) }
                }
            }
            finished = true
            let answer = whole ?? text
            return .complete(try LLMResponseDecoding(schema: explicitSchema).decode(T.self, from: Data(answer.utf8), using: decoder))
        }
    }
}
