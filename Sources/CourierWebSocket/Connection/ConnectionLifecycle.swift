import Courier

/// How a connection ended, as its readers and `close` see it.
enum ConnectionOutcome: Sendable, Equatable {
    /// Closed normally (1000/1001 or by the caller); the close code when a frame carried one.
    case normal(Int?)
    /// Ended by a failure.
    case failed(NetworkError)
}

/// Why the handler inside WSClient's closure may return.
enum HandlerRelease: Sendable {
    /// The reader saw the end of the stream.
    case readerFinished
    /// The reader's underlying iterator threw (the handler rethrows it so WSClient closes with the right code).
    case readerFailed(any Error)
    /// The caller closed while nobody was reading.
    case closeRequested
}

/// A connection's mutable state, guarded by its mutex.
struct ConnectionLifecycle {
    var iteratorTaken = false
    /// A read of the underlying stream is in progress (the handler must not return meanwhile:
    /// WSClient reads the same stream after it does).
    var reading = false
    var closeRequested = false
    var cancelledByReader = false
    var pendingRelease: HandlerRelease?
    var handlerWaiter: CheckedContinuation<HandlerRelease, Never>?
    var outcome: ConnectionOutcome?
    var outcomeWaiters: [CheckedContinuation<ConnectionOutcome, Never>] = []
    var runTask: Task<Void, Never>?
}
