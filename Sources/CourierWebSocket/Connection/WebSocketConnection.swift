import Courier
import Foundation
import Logging
import NIOCore
import NIOWebSocket
import Synchronization
import WSClient

/// An open WebSocket connection: send text or binary messages, read ``messages`` as they
/// arrive, and ``close(code:reason:)`` with a close code.
///
/// Made by ``WebSocketClient/connect()``. Reading is pulled by the reader: while nobody iterates
/// ``messages``, frames wait in the socket and the peer is slowed down (TCP back-pressure), so a
/// slow reader never makes memory grow. (``WebSocketSession`` adds a bounded buffer with a
/// choice of policy.) Cancelling the task that iterates ``messages`` closes the connection with
/// 1000 and ends the iteration with ``NetworkError/taskCancelled``.
///
/// ```swift
/// let connection = try await WebSocketClient(configuration: .init(url: url)).connect()
/// try await connection.send(text: #"[{"ticket":"t"},{"type":"ticker","codes":["KRW-BTC"]}]"#)
/// for try await message in connection.messages { print(message.text ?? "") }
/// ```
public final class WebSocketConnection: Sendable {
    let writer: WebSocketOutboundWriter
    let source: WebSocketInboundMessageStream
    let configuration: WebSocketConfiguration
    let logger: Logger
    let closeWatch: OutgoingCloseWatch
    let lifecycle = Mutex(ConnectionLifecycle())

    init(
        writer: WebSocketOutboundWriter, source: WebSocketInboundMessageStream, configuration: WebSocketConfiguration,
        closeWatch: OutgoingCloseWatch, logger: Logger
    ) {
        self.writer = writer
        self.source = source
        self.configuration = configuration
        self.closeWatch = closeWatch
        self.logger = logger
    }

    /// The incoming messages, in order. Ends (nil) when the connection closes normally — by
    /// either side with 1000 or 1001 — and throws the ``NetworkError`` that ended it otherwise:
    /// ``NetworkError/webSocketError(_:)`` for close codes, heartbeat timeouts and protocol
    /// violations, ``NetworkError/networkError(_:)`` for a connection lost without a close frame.
    /// It can be iterated once.
    public var messages: WebSocketMessages { WebSocketMessages(connection: self) }

    /// Sends a text message.
    public func send(text: String) async throws(NetworkError) {
        try await send(.text(text))
    }

    /// Sends a binary message.
    public func send(data: Data) async throws(NetworkError) {
        try await send(.binary(data))
    }

    /// Sends `message` (as one frame); throws ``WebSocketFailure/notConnected`` once the
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
            try? await writer.close(WebSocketErrorCode(codeNumber: code), reason: reason)
            releaseHandlerIfIdle(.closeRequested)
            scheduleCloseTimeout()
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

    /// Records the end and wakes everyone waiting for it.
    func finish(with outcome: ConnectionOutcome) {
        let waiters = lifecycle.withLock { state -> [CheckedContinuation<ConnectionOutcome, Never>] in
            guard state.outcome == nil else { return [] }
            state.outcome = outcome
            defer { state.outcomeWaiters = [] }
            return state.outcomeWaiters
        }
        for waiter in waiters { waiter.resume(returning: outcome) }
    }

    /// The handler (which must stay inside WSClient's closure while the socket is read) waits
    /// here until the reader has finished or the caller closed without a reader.
    func waitForRelease() async -> HandlerRelease {
        await withCheckedContinuation { continuation in
            let ready = lifecycle.withLock { state -> HandlerRelease? in
                if let release = state.pendingRelease { return release }
                state.handlerWaiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Lets the handler return, unless a read is in progress (the reader releases it when done).
    func releaseHandlerIfIdle(_ release: HandlerRelease) {
        let waiter = lifecycle.withLock { state -> CheckedContinuation<HandlerRelease, Never>? in
            guard !state.reading, state.pendingRelease == nil else { return nil }
            state.pendingRelease = release
            defer { state.handlerWaiter = nil }
            return state.handlerWaiter
        }
        waiter?.resume(returning: release)
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
