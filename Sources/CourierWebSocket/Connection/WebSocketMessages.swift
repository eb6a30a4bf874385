import Courier
import Foundation
import WSClient

/// The incoming messages of a ``WebSocketConnection``: an `AsyncSequence` whose failure is
/// ``NetworkError``. It can be iterated once; a second iteration ends at once.
public struct WebSocketMessages: AsyncSequence, Sendable {
    /// A whole message.
    public typealias Element = WebSocketMessage
    /// The one error it throws.
    public typealias Failure = NetworkError

    let connection: WebSocketConnection

    /// An iterator that reads the socket as it is asked for messages.
    public func makeAsyncIterator() -> Iterator {
        Iterator(connection: connection)
    }

    /// Reads the next message from the socket when asked (answering pings meanwhile).
    public struct Iterator: AsyncIteratorProtocol {
        let connection: WebSocketConnection
        var underlying: WebSocketInboundMessageStream.AsyncIterator?
        var done = false

        /// The next message; nil after a normal close; throws what ended the connection otherwise.
        public mutating func next() async throws(NetworkError) -> WebSocketMessage? {
            if done { return nil }
            var iterator: WebSocketInboundMessageStream.AsyncIterator
            if let underlying {
                iterator = underlying
            } else {
                guard connection.lifecycle.withLock({ state in
                    defer { state.iteratorTaken = true }
                    return !state.iteratorTaken
                }) else {
                    done = true
                    return try await connection.endOfMessages()
                }
                iterator = connection.source.makeAsyncIterator()
            }
            guard connection.beginRead() else {
                done = true
                return try await connection.endOfMessages()
            }
            do {
                let message = try await iterator.next()
                underlying = iterator
                connection.endRead()
                if let message { return WebSocketMessage(message) }
                done = true
                return try await connection.readerFinished(cancelled: Task.isCancelled)
            } catch {
                underlying = iterator
                connection.endRead()
                done = true
                if Task.isCancelled || error is CancellationError {
                    return try await connection.readerFinished(cancelled: true)
                }
                connection.releaseHandlerIfIdle(.readerFailed(error))
                return try await connection.endOfMessages()
            }
        }
    }
}

extension WebSocketConnection {
    /// Marks a read as in progress, unless the connection is already over for readers.
    func beginRead() -> Bool {
        lifecycle.withLock { state in
            guard state.pendingRelease == nil, state.outcome == nil else { return false }
            state.reading = true
            return true
        }
    }

    /// Ends a read; if the caller asked to close meanwhile, the handler may return now.
    func endRead() {
        let closeRequested = lifecycle.withLock { state in
            state.reading = false
            return state.closeRequested
        }
        if closeRequested { releaseHandlerIfIdle(.closeRequested) }
    }

    /// The stream ended under the reader: let the handler finish, then report how it ended.
    func readerFinished(cancelled: Bool) async throws(NetworkError) -> WebSocketMessage? {
        if cancelled {
            lifecycle.withLock { $0.cancelledByReader = true }
            releaseHandlerIfIdle(.readerFinished)
            throw .taskCancelled
        }
        releaseHandlerIfIdle(.readerFinished)
        return try await endOfMessages()
    }

    /// nil after a normal close, the failure otherwise.
    func endOfMessages() async throws(NetworkError) -> WebSocketMessage? {
        switch await outcome() {
        case .normal: return nil
        case .failed(let error): throw error
        }
    }
}

extension WebSocketMessage {
    init(_ message: WSCore.WebSocketMessage) {
        switch message {
        case .text(let text): self = .text(text)
        case .binary(let buffer): self = .binary(Data(buffer.readableBytesView))
        }
    }
}
