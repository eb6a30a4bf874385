#if WebSocket  // the `WebSocket` trait: Package.swift
import Courier
import Foundation
import Logging
import Synchronization

/// The loop behind a ``WebSocketSession``: dial, subscribe, pump messages into the buffer,
/// back off, dial again — until the caller stops it or the policy gives up.
final class SessionCore: Sendable {
    private struct Mutable {
        var connection: WebSocketConnection?
        var state: WebSocketSessionState = .connecting(attempt: 1)
        var stopped = false
        var loop: Task<Void, Never>?
    }

    let client: WebSocketClient
    let policy: ReconnectPolicy
    let buffer: MessageBuffer
    let states: AsyncStream<WebSocketSessionState>
    private let statesContinuation: AsyncStream<WebSocketSessionState>.Continuation
    private let sleep: @Sendable (Duration) async throws -> Void
    private let elapsed: @Sendable () -> Duration
    private let random: @Sendable () -> Double
    private let onConnect: @Sendable (WebSocketConnection) async throws(NetworkError) -> Void
    private let mutable = Mutex(Mutable())

    init(
        client: WebSocketClient,
        policy: ReconnectPolicy,
        buffer: WebSocketBufferPolicy,
        sleep: @escaping @Sendable (Duration) async throws -> Void,
        elapsed: @escaping @Sendable () -> Duration,
        random: @escaping @Sendable () -> Double,
        onConnect: @escaping @Sendable (WebSocketConnection) async throws(NetworkError) -> Void
    ) {
        self.client = client
        self.policy = policy
        self.sleep = sleep
        self.elapsed = elapsed
        self.random = random
        self.onConnect = onConnect
        (states, statesContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(256))
        self.buffer = MessageBuffer(policy: buffer, byteLimit: client.configuration.receiveBufferBytes)
        self.buffer.onTermination { [weak self] in self?.stop() }
    }

    var currentConnection: WebSocketConnection? { mutable.withLock { $0.connection } }
    var currentState: WebSocketSessionState { mutable.withLock { $0.state } }
    private var isStopped: Bool { mutable.withLock { $0.stopped } }

    func start() {
        let loop = Task { await self.run() }
        mutable.withLock { $0.loop = loop }
    }

    /// Stops without waiting (the reader went away, or the session was released): nothing
    /// re-dials from now on.
    func stop() {
        let first = mutable.withLock { state in
            defer { state.stopped = true }
            return !state.stopped
        }
        guard first else { return }
        Task { await self.shutDown(code: 1000, reason: nil) }
    }

    func close(code: Int, reason: String?) async {
        let first = mutable.withLock { state in
            defer { state.stopped = true }
            return !state.stopped
        }
        guard first else {
            await mutable.withLock { $0.loop }?.value
            return
        }
        await shutDown(code: code, reason: reason)
    }

    /// Closes the current connection, ends the loop, and reports `.closed(nil)`.
    private func shutDown(code: Int, reason: String?) async {
        let (connection, loop) = mutable.withLock { ($0.connection, $0.loop) }
        buffer.finish(.normal(code))
        await connection?.close(code: code, reason: reason)
        loop?.cancel()
        await loop?.value
        emit(.closed(nil))
        statesContinuation.finish()
    }

    private func run() async {
        var attempt = 1
        while !isStopped {
            emit(.connecting(attempt: attempt))
            let failure: NetworkError
            let connectedFor: Duration
            do {
                (failure, connectedFor) = try await connectAndPump()
            } catch {
                (failure, connectedFor) = (error, .zero)
            }
            if isStopped { return }
            if connectedFor >= policy.resetAfter { attempt = 1 }
            if Self.refusedBeforeDialling(failure) || (policy.maxAttempts.map { attempt > $0 } ?? false) {
                giveUp(failure)
                return
            }
            let delay = policy.delay(attempt: attempt, random: random())
            attempt += 1
            emit(.reconnecting(attempt: attempt, after: delay, reason: failure))
            client.logger.info(
                "websocket reconnecting",
                metadata: ["attempt": "\(attempt)", "after": "\(delay)", "reason": "\(failure)"])
            do { try await sleep(delay) } catch { return }
        }
    }

    /// A URL or TLS settings refused before dialling (malformed, plain `ws://` to a host not
    /// allowed, pins on `wss://`) are refused again on every attempt: there is no point re-dialling.
    private static func refusedBeforeDialling(_ failure: NetworkError) -> Bool {
        switch failure {
        case .invalidURL, .insecureURL, .webSocketError(.tlsUnavailable): true
        default: false
        }
    }

    /// One connection: dial, subscribe, pump until it ends. Returns what ended it and how long it was up.
    private func connectAndPump() async throws(NetworkError) -> (NetworkError, Duration) {
        let connection = try await client.connect()
        let adopted = mutable.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.connection = connection
            return true
        }
        defer { mutable.withLock { $0.connection = nil } }
        guard adopted else {
            await connection.close()
            return (.taskCancelled, .zero)
        }
        do {
            try await onConnect(connection)
        } catch {
            await connection.close(code: 1011, reason: nil)
            throw error
        }
        emit(.connected)
        let start = elapsed()
        let ending: NetworkError
        do {
            ending = try await pump(connection)
        } catch {
            ending = error
        }
        // Whatever ended the pump, the socket is closed before the next attempt (a no-op when
        // the connection has ended already; a close frame when the reader went away).
        await connection.close()
        return (ending, elapsed() - start)
    }

    /// Moves the connection's messages into the session's buffer until one of them ends.
    private func pump(_ connection: WebSocketConnection) async throws(NetworkError) -> NetworkError {
        for try await message in connection.messages where !(await buffer.push(message)) {
            stop()  // the session's reader has gone
            return .taskCancelled
        }
        return .webSocketError(.closed(code: connection.closeCode ?? 1000, reason: nil))
    }

    private func giveUp(_ failure: NetworkError) {
        client.logger.warning("websocket session gave up", metadata: ["reason": "\(failure)"])
        mutable.withLock { $0.stopped = true }
        // The state first: a reader woken by the end of the messages already sees it closed.
        emit(.closed(failure))
        buffer.finish(.failed(failure))
        statesContinuation.finish()
    }

    private func emit(_ state: WebSocketSessionState) {
        mutable.withLock { $0.state = state }
        statesContinuation.yield(state)
    }
}
#endif  // WebSocket
