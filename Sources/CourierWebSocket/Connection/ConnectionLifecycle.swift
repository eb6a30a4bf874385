#if WebSocket  // the `WebSocket` trait: Package.swift
import Courier

/// How a connection ended, as its readers and `close` see it.
enum ConnectionOutcome: Sendable, Equatable {
    /// Closed normally (1000/1001 or by the caller); the close code when a frame carried one.
    case normal(Int?)
    /// Ended by a failure.
    case failed(NetworkError)
}

/// A connection's mutable state, guarded by its mutex.
struct ConnectionLifecycle {
    var closeRequested = false
    var cancelledByReader = false
    var outcome: ConnectionOutcome?
    var outcomeWaiters: [CheckedContinuation<ConnectionOutcome, Never>] = []
    var runTask: Task<Void, Never>?
}
#endif  // WebSocket
