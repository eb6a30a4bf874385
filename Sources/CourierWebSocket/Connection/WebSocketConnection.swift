#if WebSocket  // the `WebSocket` trait: Package.swift
public import Courier
public import Foundation
import Logging
import NIOCore
import NIOWebSocket
import Synchronization
import WSClient

/// An open WebSocket connection: send text or binary messages, read ``messages`` as they
/// arrive, and ``close(code:reason:)`` with a close code.
///
/// Made by ``WebSocketClient/connect()``. The socket is read all the time (so pings are answered
/// and the heartbeat sees pongs even while nobody iterates ``messages``) into a bounded queue
/// (`receiveBufferLimit` messages or `receiveBufferBytes` bytes); when it is full, reading pauses until the reader catches up
/// and the peer is slowed down by TCP back-pressure, so a slow reader never makes memory grow.
/// (``WebSocketSession`` adds a buffer with a choice of policy.) Cancelling the task that
/// iterates ``messages`` closes the connection with 1000 and ends the iteration with
/// `NetworkError.taskCancelled`.
///
/// ```swift
/// let connection = try await WebSocketClient(configuration: .init(url: url)).connect()
/// try await connection.send(text: #"[{"ticket":"t"},{"type":"ticker","codes":["KRW-BTC"]}]"#)
/// for try await message in connection.messages { print(message.text ?? "") }
/// ```
public final class WebSocketConnection: Sendable {
    let writer: WebSocketOutboundWriter
    let socket: SocketIterator
    let inbound: MessageBuffer
    let configuration: WebSocketConfiguration
    let logger: Logger
    let closeWatch: OutgoingCloseWatch
    let lifecycle = Mutex(ConnectionLifecycle())

    init(
        writer: WebSocketOutboundWriter, source: WebSocketInboundMessageStream, configuration: WebSocketConfiguration,
        closeWatch: OutgoingCloseWatch, logger: Logger
    ) {
        self.writer = writer
        self.socket = SocketIterator(source)
        self.configuration = configuration
        self.closeWatch = closeWatch
        self.logger = logger
        inbound = MessageBuffer(policy: .suspend(limit: configuration.receiveBufferLimit), byteLimit: configuration.receiveBufferBytes)
        inbound.onTermination { [weak self] in self?.readerCancelled() }
    }

    /// The incoming messages, in order. Ends (nil) when the connection closes normally — by
    /// either side with 1000 or 1001 — and throws the `NetworkError` that ended it otherwise:
    /// `NetworkError/webSocketError(_:)` for close codes, heartbeat timeouts and protocol
    /// violations, `NetworkError/networkError(_:)` for a connection lost without a close frame.
    /// Read it from one task at a time.
    public var messages: WebSocketMessages { WebSocketMessages(connection: self) }

    /// Sends a text message.
    public func send(text: String) async throws(NetworkError) {
        try await send(.text(text))
    }

    /// Sends a binary message.
    public func send(data: Data) async throws(NetworkError) {
        try await send(.binary(data))
    }

    /// Sends `message` (as one frame); throws `WebSocketFailure/notConnected` once the
    /// connection is closing or closed.
    public func send(_ message: WebSocketMessage) async throws(NetworkError) {
        guard lifecycle.withLock({ !$0.closeRequested && $0.outcome == nil }) else {
            throw .webSocketError(.notConnected)
        }
        do {
            switch message {
            case .text(let text): try await writer.write(.text(text))
            case .binary(let data): try await writer.write(.binary(ByteBuffer(bytes: data)))
            }
        } catch is CancellationError {
            throw .taskCancelled
        } catch {
            throw .webSocketError(.notConnected)
        }
    }

    /// Closes the connection with `code` (1000 unless said) and waits for the close handshake
    /// (at most the configuration's `closeTimeout`). Closing twice is harmless.
    public func close(code: Int = 1000, reason: String? = nil) async {
        let first = lifecycle.withLock { state -> Bool in
            defer { state.closeRequested = true }
            return !state.closeRequested && state.outcome == nil
        }
        if first {
            logger.debug("websocket closing", metadata: ["code": "\(code)"])
            // The timeout runs from here: even a close frame that cannot be written is bounded.
            scheduleCloseTimeout()
            try? await writer.close(WebSocketErrorCode(codeNumber: code), reason: reason)
            // A socket reader waiting for room stops, and the handler reads the peer's close
            // frame at once, so WSClient can finish the close handshake.
            inbound.markClosing()
            inbound.releaseProducer()
        }
        _ = await outcome()
    }

    /// The close code of the close frame that ended the connection, once it has ended (nil when
    /// it ended without one, or has not ended).
    public var closeCode: Int? {
        lifecycle.withLock { state in
            if case .normal(let code) = state.outcome { return code }
            if case .failed(.webSocketError(.closed(let code, _))) = state.outcome { return code }
            return nil
        }
    }

    // MARK: Lifecycle shared with the handler and the run task

    /// Waits until the connection has ended and returns how.
    func outcome() async -> ConnectionOutcome {
        await withCheckedContinuation { continuation in
            let ready = lifecycle.withLock { state -> ConnectionOutcome? in
                if let outcome = state.outcome { return outcome }
                state.outcomeWaiters.append(continuation)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Records the end and wakes everyone waiting for it; the reader gets what is queued, then the end.
    func finish(with outcome: ConnectionOutcome) {
        defer { inbound.finish(outcome) }
        let waiters = lifecycle.withLock { state -> [CheckedContinuation<ConnectionOutcome, Never>] in
            guard state.outcome == nil else { return [] }
            state.outcome = outcome
            defer { state.outcomeWaiters = [] }
            return state.outcomeWaiters
        }
        for waiter in waiters { waiter.resume(returning: outcome) }
    }

    /// Runs inside WSClient's handler: reads the socket into the queue whenever the caller is
    /// not reading it, until the stream ends, the reader goes away, or the caller closes. (When
    /// it returns, WSClient sends a close frame if none was sent and finishes the close
    /// handshake; it must not return during the caller's turn, hence the turns.)
    func serve() async throws {
        while await inbound.awaitBackgroundTurn(idle: .milliseconds(50)) {
            let message: WSCore.WebSocketMessage?
            do {
                message = try await socket.next()
            } catch {
                inbound.endTurn(caller: false, over: true, error: error)
                // Rethrown, so WSClient closes with the matching code (1002, 1007, 1009 …).
                throw error
            }
            guard let message else {
                inbound.endTurn(caller: false, over: true)
                return
            }
            let accepted = await inbound.push(WebSocketMessage(message))
            inbound.endTurn(caller: false, over: !accepted)
            if !accepted { return }
        }
        if let error = inbound.socketError { throw error }
    }

    /// The next message for the caller: queued ones first, else read from the socket on the
    /// caller's own task when it is free, else wait for the handler's read.
    func nextMessage() async throws(NetworkError) -> WebSocketMessage? {
        if Task.isCancelled {
            inbound.terminate()
            throw .taskCancelled
        }
        switch inbound.claimForCaller() {
        case .message(let message): return message
        case .failure(let error): throw error
        case .wait: return try await inbound.next()
        case .readSocket: break
        }
        do {
            if let message = try await socket.next() {
                inbound.endTurn(caller: true, over: false)
                return WebSocketMessage(message)
            }
            inbound.endTurn(caller: true, over: true)
        } catch {
            inbound.endTurn(caller: true, over: true, error: error)
        }
        if Task.isCancelled {
            inbound.terminate()
            throw .taskCancelled
        }
        return try await endOfMessages()
    }

    /// nil after a normal close, the failure otherwise.
    func endOfMessages() async throws(NetworkError) -> WebSocketMessage? {
        switch await outcome() {
        case .normal: return nil
        case .failed(let error): throw error
        }
    }

    /// The task reading ``messages`` was cancelled: close with 1000, as a caller's close would.
    private func readerCancelled() {
        lifecycle.withLock { $0.cancelledByReader = true }
        Task { await self.close() }
    }

    func attach(runTask: Task<Void, Never>) {
        lifecycle.withLock { $0.runTask = runTask }
    }

    /// Cancels the socket's task: WSClient then closes the channel's input, which ends any read.
    func abort() {
        lifecycle.withLock { $0.runTask }?.cancel()
    }

    private func scheduleCloseTimeout() {
        let timeout = configuration.closeTimeout
        Task { [weak self] in
            try? await Task.sleep(for: timeout)
            guard let self, self.lifecycle.withLock({ $0.outcome == nil }) else { return }
            self.logger.debug("websocket close handshake timed out")
            self.abort()
        }
    }
}
#endif  // WebSocket
