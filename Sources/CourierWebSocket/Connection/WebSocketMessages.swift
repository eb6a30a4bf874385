#if WebSocket  // the `WebSocket` trait: Package.swift
public import Courier
import Foundation
import NIOCore
import NIOFoundationCompat
import WSClient

/// The incoming messages of a ``WebSocketConnection``: an `AsyncSequence` whose failure is
/// `NetworkError`. Read it from one task at a time.
public struct WebSocketMessages: AsyncSequence, Sendable {
    /// A whole message.
    public typealias Element = WebSocketMessage
    /// The one error it throws.
    public typealias Failure = NetworkError

    let connection: WebSocketConnection

    /// An iterator over the connection's messages.
    public func makeAsyncIterator() -> Iterator {
        Iterator(connection: connection)
    }

    /// Takes the next message, waiting for one.
    public struct Iterator: AsyncIteratorProtocol {
        let connection: WebSocketConnection

        /// The next message; nil after a normal close; throws what ended the connection otherwise
        /// (`NetworkError.taskCancelled` when the reading task is cancelled).
        public mutating func next() async throws(NetworkError) -> WebSocketMessage? {
            try await connection.nextMessage()
        }
    }
}

extension WebSocketMessage {
    init(_ message: WSCore.WebSocketMessage) {
        switch message {
        case .text(let text): self = .text(text)
        // The Data shares the buffer's storage: no copy of the message.
        case .binary(let buffer): self = .binary(Data(buffer: buffer, byteTransferStrategy: .noCopy))
        }
    }
}
#endif  // WebSocket
