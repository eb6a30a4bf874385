#if WebSocket  // the `WebSocket` trait: Package.swift
import Courier
import Synchronization
import WSClient

/// Who reads a connection's socket.
///
/// The caller's own task reads it while the caller is reading messages, so a message needs no
/// hop between tasks (as with raw WSClient); WSClient's handler task reads it when the caller has
/// not read for a moment (`backgroundIdle`), so pings are answered and the heartbeat sees pongs
/// while nobody reads, and it queues what arrives. One of them at a time: the turn is taken and
/// given back under the queue's lock, and messages already queued are always delivered first.
enum SocketReader: Sendable {
    case none, caller, background
}

/// The socket's message iterator; only the reader whose turn it is touches it.
final class SocketIterator: @unchecked Sendable {  // unchecked: used by one task at a time, guarded by MessageBuffer's turn
    private var iterator: WebSocketInboundMessageStream.AsyncIterator

    init(_ stream: WebSocketInboundMessageStream) {
        iterator = stream.makeAsyncIterator()
    }

    func next() async throws -> WSCore.WebSocketMessage? {
        try await iterator.next()
    }
}

extension MessageBuffer {
    /// What the caller's `next()` does now.
    enum Claim {
        case message(WebSocketMessage?)
        case failure(NetworkError)
        case readSocket
        case wait
    }

    /// For the caller: a queued message, the end, its turn to read the socket, or wait for the handler's read.
    func claimForCaller() -> Claim {
        state.withLock { state in
            switch takeReady(&state) {
            case .success(let message)?: return .message(message)
            case .failure(let error)?: return .failure(error)
            case nil: break
            }
            guard state.socketReader == .none, !state.socketOver else { return .wait }
            state.socketReader = .caller
            return .readSocket
        }
    }

    /// Ends a turn; `over` when the socket's stream ended in it (with the error it threw, if any).
    func endTurn(caller: Bool, over: Bool, error: (any Error)? = nil) {
        state.withLock { state in
            state.socketReader = .none
            if caller { state.lastCallerRead = .now }
            if over {
                state.socketOver = true
                if state.socketError == nil { state.socketError = error }
            }
        }
    }

    /// For the handler: waits for its turn (true), or until the socket is over for it (false);
    /// it takes a turn when the caller has not read for `idle`, or at once when closing.
    func awaitBackgroundTurn(idle: Duration) async -> Bool {
        while true {
            let turn = state.withLock { state -> Bool? in
                guard state.socketReader == .none else { return nil }
                if state.socketOver || state.terminated { return false }
                guard state.closing || state.lastCallerRead.duration(to: .now) >= idle else { return nil }
                state.socketReader = .background
                return true
            }
            if let turn { return turn }
            do { try await Task.sleep(for: idle / 4) } catch { await Task.yield() }
        }
    }

    /// The error the socket's stream ended with, if it threw.
    var socketError: (any Error)? { state.withLock { $0.socketError } }

    /// The connection is closing: the handler reads without waiting for the caller to be idle.
    func markClosing() {
        state.withLock { $0.closing = true }
    }
}
#endif  // WebSocket
