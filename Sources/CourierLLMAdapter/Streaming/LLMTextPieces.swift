public import Courier

/// The answer text of a streaming LLM API, piece by piece: each element of `Base` (an event, a
/// JSON line) read as the API frames it, pieces without text skipped, until the API's end marker
/// (OpenAI's `data: [DONE]`, Ollama's `"done": true`).
///
/// Every byte is the network's: an API's error frame ends the sequence with the `NetworkError`
/// its reader gives, a body that ends before the end marker with `NetworkError.invalidResponse`
/// (a cut-off answer would otherwise decode as a shorter, complete one), and an answer whose text
/// grows past `limit` UTF-8 bytes (the client's `maxResponseBytes`) with
/// `NetworkError.responseTooLarge(limit:)`. Each frame is already bounded by the stream it comes
/// from (`events` and `jsonLines` refuse a line over `maxResponseBytes`).
///
/// ```swift
/// for try await piece in OpenAIChatStream.pieces(chat, client: client) {
///     if case .delta(let text) = piece { print(text, terminator: "") }
/// }
/// ```
public struct LLMTextPieces<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Failure == NetworkError {
    /// The pieces are deltas: the text after the text before it.
    public typealias Element = LLMTextPiece
    /// Every failure is a `NetworkError`.
    public typealias Failure = NetworkError

    /// What one element of the base stream says.
    struct Frame {
        /// The next characters of the answer ("" for none).
        var text: String
        /// Whether this element is the API's end marker.
        var ends: Bool
    }

    let base: Base
    let limit: Int
    let read: @Sendable (Base.Element) throws(NetworkError) -> Frame

    init(_ base: Base, limit: Int, read: @escaping @Sendable (Base.Element) throws(NetworkError) -> Frame) {
        self.base = base
        self.limit = limit
        self.read = read
    }

    /// An iterator over the pieces.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator(), limit: limit, read: read)
    }

    /// Reads the base stream until the next piece of text.
    public struct Iterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let limit: Int
        let read: @Sendable (Base.Element) throws(NetworkError) -> Frame
        /// UTF-8 bytes of answer so far.
        var bytes = 0
        var ended = false

        /// The next piece, or nil after the end marker.
        public mutating func next() async throws(NetworkError) -> LLMTextPiece? {
            try await next(isolation: nil)
        }

        /// The next piece, or nil after the end marker (on `actor`).
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(NetworkError) -> LLMTextPiece? {
            while !ended {
                guard let element = try await base.next(isolation: actor) else {
                    ended = true
                    throw .invalidResponse
                }
                let frame: Frame
                do {
                    frame = try read(element)
                } catch {
                    ended = true
                    throw error
                }
                // Nothing after the end marker is read: the iterator (and its connection) is done.
                ended = frame.ends
                guard !frame.text.isEmpty else { continue }
                bytes += frame.text.utf8.count
                guard bytes <= limit else {
                    ended = true
                    throw .responseTooLarge(limit: limit)
                }
                return .delta(frame.text)
            }
            return nil
        }
    }
}
