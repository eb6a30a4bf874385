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

    /// Partials of `T` from the text pieces of `base`; `decoder` decodes the final value (its
    /// strategies apply as in `request(_:as:)`).
    public init(_ base: Base, as type: T.Type, schema: JSONSchema? = nil, decoder: JSONDecoder = JSONDecoder()) {
        self.base = base
        self.schema = schema
        self.decoder = decoder
    }

    /// An iterator over the partials.
    public func makeAsyncIterator() -> Iterator {
        let schema = schema ?? JSONSchema.inferred(from: T.self)
        return Iterator(base: base.makeAsyncIterator(), schema: schema, explicitSchema: self.schema, decoder: decoder)
    }

    /// Reads pieces until the decoded value changes.
    public struct Iterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let schema: JSONSchema?
        let explicitSchema: JSONSchema?
        let decoder: JSONDecoder
        var partial: PartialJSONDecoder
        var text = ""
        var whole: String?
        var finished = false

        init(base: Base.AsyncIterator, schema: JSONSchema?, explicitSchema: JSONSchema?, decoder: JSONDecoder) {
            self.base = base
            self.schema = schema
            self.explicitSchema = explicitSchema
            self.decoder = decoder
            self.partial = PartialJSONDecoder(schema: schema)
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
                    text += delta
                    if let update = partial.feed(delta) { return .partial(update.snapshot, restart: update.isRestart) }
                case .whole(let answer):
                    guard answer != text, whole == nil else { continue }
                    // The whole answer replaces the deltas: decoded afresh, shown as a restart
                    // unless it only adds to what the deltas gave.
                    whole = answer
                    let previous = partial.snapshot
                    var fresh = PartialJSONDecoder(schema: schema)
                    let fed = fresh.feed(answer)
                    partial = fresh
                    guard let update = fed else { continue }
                    let restart = previous.map { !update.snapshot.extends($0) } ?? false
                    return .partial(update.snapshot, restart: restart)
                }
            }
            finished = true
            let answer = whole ?? text
            return .complete(try LLMResponseDecoding(schema: explicitSchema).decode(T.self, from: Data(answer.utf8), using: decoder))
        }
    }
}
