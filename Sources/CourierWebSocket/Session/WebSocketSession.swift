#if WebSocket  // the `WebSocket` trait: Package.swift
public import Courier
import Foundation
import Logging
import Synchronization

/// A WebSocket that stays connected: it re-dials with backoff after a drop, runs `onConnect`
/// (re-sending the subscription) on every connection, detects a dead peer by heartbeat (set
/// `pingInterval` in the client's configuration), reports its state, and buffers messages for a
/// slow reader by a policy of your choice.
///
/// ```swift
/// let session = WebSocketSession(client: client, buffer: .dropOldest(limit: 100)) { connection in
///     try await connection.send(text: subscription)
/// }
/// for try await message in session.messages { … }   // across reconnects
/// ```
///
/// It stops for good — no reconnect — when the caller calls ``close(code:reason:)``, when the
/// task reading ``messages`` is cancelled, when the session is released, or when the policy's
/// `maxAttempts` is used up (then ``messages`` throws the last failure).
public final class WebSocketSession: Sendable {
    let core: SessionCore

    /// A session that starts connecting at once.
    /// - Parameters:
    ///   - client: Where to connect (set `pingInterval` in its configuration for a heartbeat).
    ///   - reconnect: Backoff between attempts.
    ///   - buffer: What happens when messages arrive faster than ``messages`` is read (bounded
    ///     in bytes too, by the client's `receiveBufferBytes`).
    ///   - clock: The clock backoff waits on (a test clock makes attempt times checkable).
    ///   - onConnect: Runs on every new connection before it counts as connected; send the
    ///     subscription here. If it throws, the connection is closed and re-dialled.
    ///   - random: Numbers in 0..<1 for the jitter.
    public init(
        client: WebSocketClient,
        reconnect: ReconnectPolicy = ReconnectPolicy(),
        buffer: WebSocketBufferPolicy = .suspend(limit: 256),
        clock: some Clock<Duration> = ContinuousClock(),
        onConnect: @escaping @Sendable (WebSocketConnection) async throws(NetworkError) -> Void = { _ in },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        core = SessionCore(
            client: client,
            policy: reconnect,
            buffer: buffer,
            sleep: { duration in try await clock.sleep(for: duration) },
            elapsed: Self.stopwatch(clock),
            random: random,
            onConnect: onConnect
        )
        core.start()
    }

    deinit {
        core.stop()
    }

    /// The messages of every connection in order, across reconnects. Read by one task; ends
    /// when the session is closed, throws the last failure when the policy gave up, and
    /// cancelling the reading task closes the session.
    public var messages: WebSocketSessionMessages { WebSocketSessionMessages(buffer: core.buffer) }

    /// Every state change, newest last (the most recent 256 are kept for a slow reader).
    public var states: AsyncStream<WebSocketSessionState> { core.states }

    /// The current state.
    public var state: WebSocketSessionState { core.currentState }

    /// Messages dropped under ``WebSocketBufferPolicy/dropOldest(limit:)``.
    public var droppedMessages: Int { core.buffer.dropped }

    /// Sends on the current connection; throws `WebSocketFailure.notConnected` between connections.
    public func send(_ message: WebSocketMessage) async throws(NetworkError) {
        guard let connection = core.currentConnection else { throw .webSocketError(.notConnected) }
        try await connection.send(message)
    }

    /// Sends a text message on the current connection.
    public func send(text: String) async throws(NetworkError) {
        try await send(.text(text))
    }

    /// Closes the connection with `code` and stops for good; ``messages`` ends after what is buffered.
    public func close(code: Int = 1000, reason: String? = nil) async {
        await core.close(code: code, reason: reason)
    }

    private static func stopwatch<C: Clock<Duration>>(_ clock: C) -> @Sendable () -> Duration {
        let start = clock.now
        return { start.duration(to: clock.now) }
    }
}

/// The messages of a ``WebSocketSession``, across reconnects.
public struct WebSocketSessionMessages: AsyncSequence, Sendable {
    /// A whole message.
    public typealias Element = WebSocketMessage
    /// The one error it throws.
    public typealias Failure = NetworkError

    let buffer: MessageBuffer

    /// An iterator over the session's buffer.
    public func makeAsyncIterator() -> Iterator { Iterator(buffer: buffer) }

    /// Takes messages from the session's buffer.
    public struct Iterator: AsyncIteratorProtocol {
        let buffer: MessageBuffer

        /// The next message; nil once the session was closed; throws why the session gave up.
        public mutating func next() async throws(NetworkError) -> WebSocketMessage? {
            try await buffer.next()
        }
    }
}
#endif  // WebSocket
