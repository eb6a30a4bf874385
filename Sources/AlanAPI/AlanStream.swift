public import Courier
import CourierLLM
import CourierTransfers

/// The answer of ``AlanClient/stream(_:task:)`` as it arrives: progress sentences and tokens,
/// ending with the complete answer. Frames of unknown types are skipped.
///
/// The stream opens when iterated. A 500 before the first event resets the conversation and
/// opens it once more; a key or URL-length problem is thrown by the first `next()`, with no
/// request sent.
public struct AlanStream: AsyncSequence, Sendable {
    /// Progress sentences, tokens, then the whole answer.
    public typealias Element = AlanStreamEvent
    /// Every failure is a `NetworkError`.
    public typealias Failure = NetworkError

    let endpoint: Result<AlanAPI, NetworkError>
    let open: @Sendable (AlanAPI) -> DecodedServerEventStream<AlanFrame>
    let resetBeforeRetry: @Sendable () async -> Void

    /// An iterator that opens the stream on its first `next()`.
    public func makeAsyncIterator() -> Iterator {
        Iterator(stream: self)
    }

    /// Reads the events one at a time.
    public struct Iterator: AsyncIteratorProtocol {
        let stream: AlanStream
        var frames: DecodedServerEventStream<AlanFrame>.Iterator?
        var sawEvent = false
        var retried = false
        var finished = false

        /// The next event, or nil after the complete answer.
        public mutating func next() async throws(NetworkError) -> AlanStreamEvent? {
            try await next(isolation: nil)
        }

        /// The next event, or nil after the complete answer (on `actor`).
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(NetworkError) -> AlanStreamEvent? {
            while !finished {
                var iterator: DecodedServerEventStream<AlanFrame>.Iterator
                if let frames {
                    iterator = frames
                } else {
                    switch stream.endpoint {
                    case .failure(let error):
                        finished = true
                        throw error
                    case .success(let endpoint):
                        iterator = stream.open(endpoint).makeAsyncIterator()
                    }
                }
                do {
                    let frame = try await iterator.next(isolation: actor)
                    frames = iterator
                    guard let frame else {
                        finished = true
                        return nil
                    }
                    guard let event = frame.value.event else { continue }
                    sawEvent = true
                    if case .complete = event { finished = true }
                    return event
                } catch .serverError(500) where !sawEvent && !retried {
                    retried = true
                    frames = nil
                    await stream.resetBeforeRetry()
                } catch {
                    finished = true
                    throw error
                }
            }
            return nil
        }
    }
}
