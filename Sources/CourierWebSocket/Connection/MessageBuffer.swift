#if WebSocket  // the `WebSocket` trait: Package.swift
import Courier
import Synchronization

/// The bounded queue between a socket reader (one producer) and the caller reading messages
/// (one consumer), for a connection and, with its own policy, for a session.
///
/// Bounded twice: by the policy's message count and by `byteLimit`, the bytes of the messages
/// queued — 64 messages of 16 MiB each would otherwise be a gigabyte. A message is always let
/// into an empty queue, so one larger than `byteLimit` (but within the connection's message
/// size limit) still arrives; at most one more waits beside the queue, with its producer.
final class MessageBuffer: Sendable {
    struct State {
        var items: [WebSocketMessage] = []
        var head = 0
        /// The bytes of the messages queued (from `head` on).
        var bytes = 0
        var consumer: CheckedContinuation<WebSocketMessage?, any Error>?
        var producer: (CheckedContinuation<Bool, Never>, WebSocketMessage)?
        var ending: ConnectionOutcome?
        var terminated = false
        var dropped = 0
        // Connections only (see MessageBuffer+SocketTurn.swift): who reads the socket now.
        var socketReader = SocketReader.none
        var lastCallerRead = ContinuousClock.now
        var socketOver = false
        var socketError: (any Error)?
        var closing = false

        var count: Int { items.count - head }

        mutating func popFirst() -> WebSocketMessage? {
            guard head < items.count else { return nil }
            let first = items[head]
            head += 1
            bytes -= first.byteCount
            if head > 64, head * 2 > items.count {
                items.removeFirst(head)
                head = 0
            }
            return first
        }

        mutating func append(_ message: WebSocketMessage) {
            items.append(message)
            bytes += message.byteCount
        }

        /// Whether `message` may join the queue now: an empty queue takes any message, else
        /// both the count and the bytes must stay within their limits.
        func hasRoom(for message: WebSocketMessage, limit: Int, byteLimit: Int) -> Bool {
            count == 0 || (count < limit && message.byteCount <= byteLimit - bytes)
        }
    }

    let state = Mutex(State())
    private let policy: WebSocketBufferPolicy
    /// The most bytes of messages queued at once (see the type's note).
    let byteLimit: Int
    private let terminationHandler = Mutex<(@Sendable () -> Void)?>(nil)

    init(policy: WebSocketBufferPolicy, byteLimit: Int = .max) {
        self.policy = policy
        self.byteLimit = max(1, byteLimit)
    }

    /// Runs `handler` once when the reader goes away (its task was cancelled).
    func onTermination(_ handler: @escaping @Sendable () -> Void) {
        terminationHandler.withLock { $0 = handler }
    }

    /// Wakes a producer waiting for room with `false` (the connection is closing: stop reading).
    func releaseProducer() {
        let producer = state.withLock { state in
            defer { state.producer = nil }
            return state.producer
        }
        producer?.0.resume(returning: false)
    }

    var dropped: Int { state.withLock { $0.dropped } }

    /// What a push does with the queue as it is: hand the message to the waiting reader, queue
    /// it (dropping the oldest under `.dropOldest`), refuse it, or find the queue full.
    private enum Offer {
        case deliver(CheckedContinuation<WebSocketMessage?, any Error>)
        case done(Bool)
        case full
    }

    private func offer(_ message: WebSocketMessage, _ state: inout State) -> Offer {
        if state.terminated || state.ending != nil { return .done(false) }
        if let consumer = state.consumer {
            state.consumer = nil
            return .deliver(consumer)
        }
        if state.hasRoom(for: message, limit: policy.limit, byteLimit: byteLimit) {
            state.append(message)
            return .done(true)
        }
        if case .dropOldest = policy {
            // As many of the oldest as it takes: a big message may push out several small ones.
            while !state.hasRoom(for: message, limit: policy.limit, byteLimit: byteLimit), state.popFirst() != nil {
                state.dropped += 1
            }
            state.append(message)
            return .done(true)
        }
        // Closing and full: nobody will make room, so the socket's reader stops here and
        // WSClient reads on to the peer's close frame itself.
        return state.closing ? .done(false) : .full
    }

    /// Adds a message; under `.suspend` waits for room. False when the reader has gone.
    func push(_ message: WebSocketMessage) async -> Bool {
        // Fast path without a continuation: a waiting reader takes it, or there is room.
        switch state.withLock({ offer(message, &$0) }) {
        case .deliver(let consumer):
            consumer.resume(returning: message)
            return true
        case .done(let accepted):
            return accepted
        case .full:
            return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                // Offered again under the lock that parks it: the reader may have emptied the
                // queue and begun waiting since the fast path looked, and then takes this message
                // now (queued, it would wait beside it for good, and the next push would overtake it).
                let offered = state.withLock { state -> Offer in
                    let offered = offer(message, &state)
                    if case .full = offered { state.producer = (continuation, message) }
                    return offered
                }
                switch offered {
                case .deliver(let consumer):
                    consumer.resume(returning: message)
                    continuation.resume(returning: true)
                case .done(let accepted):
                    continuation.resume(returning: accepted)
                case .full:
                    break
                }
            }
        }
    }

    /// No more messages: the reader gets the rest, then nil (normal) or the failure.
    func finish(_ ending: ConnectionOutcome) {
        let (consumer, producer) = state.withLock { state in
            guard state.ending == nil else {
                return (nil, nil) as (CheckedContinuation<WebSocketMessage?, any Error>?, (CheckedContinuation<Bool, Never>, WebSocketMessage)?)
            }
            state.ending = ending
            let consumer = state.count == 0 ? state.consumer : nil
            if consumer != nil { state.consumer = nil }
            defer { state.producer = nil }
            return (consumer, state.producer)
        }
        producer?.0.resume(returning: false)
        switch ending {
        case .normal: consumer?.resume(returning: nil)
        case .failed(let error): consumer?.resume(throwing: error)
        }
    }

    /// A queued message (letting a waiting producer in), or the end when it is known; nil when
    /// the reader has to wait.
    func takeReady(_ state: inout State) -> Result<WebSocketMessage?, NetworkError>? {
        if state.terminated { return .failure(.taskCancelled) }
        if let first = state.popFirst() {
            admitWaitingProducer(&state)
            return .success(first)
        }
        switch state.ending {
        case .normal?: return .success(nil)
        case .failed(let error)?: return .failure(error)
        case nil: return nil
        }
    }

    /// The next message, waiting for one; nil at a normal end.
    func next() async throws(NetworkError) -> WebSocketMessage? {
        if Task.isCancelled {
            terminate()
            throw .taskCancelled
        }
        // Fast path without a continuation: a message is queued, or the end is known.
        if let ready = state.withLock({ takeReady(&$0) }) { return try ready.get() }
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<WebSocketMessage?, any Error>) in
                    let result = state.withLock { state -> Result<WebSocketMessage?, NetworkError>? in
                        let ready = takeReady(&state)
                        if ready == nil { state.consumer = continuation }
                        return ready
                    }
                    if let result { continuation.resume(with: result) }
                }
            } onCancel: {
                terminate()
            }
        } catch {
            throw NetworkError(error)
        }
    }

    /// A producer waiting for room gets it once there is room: its message is queued and it
    /// goes on. (Called after every take, so it is let in by the time the queue is empty.)
    func admitWaitingProducer(_ state: inout State) {
        guard let (producer, message) = state.producer, state.hasRoom(for: message, limit: policy.limit, byteLimit: byteLimit) else { return }
        state.producer = nil
        state.append(message)
        producer.resume(returning: true)
    }

    /// The reader went away (its task was cancelled): wake both sides and tell the session.
    func terminate() {
        let (consumer, producer, first) = state.withLock { state in
            let first = !state.terminated
            state.terminated = true
            defer {
                state.consumer = nil
                state.producer = nil
            }
            return (state.consumer, state.producer, first)
        }
        consumer?.resume(throwing: NetworkError.taskCancelled)
        producer?.0.resume(returning: false)
        if first { terminationHandler.withLock { $0 }?() }
    }
}
#endif  // WebSocket
