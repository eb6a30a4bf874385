public import CourierTransportCore

/// Sees every call of a `NetworkClient`: each ``CallEvent`` as it happens and each call's whole
/// timeline when it ends. Installed with `NetworkClient.Configuration.observers` (none by default).
///
/// Observers run off the calls' path, each on a task of its own fed in order: a slow or stuck
/// observer never stalls or fails a call (when it falls 4,096 events behind, the oldest
/// undelivered ones are dropped).
///
/// ```swift
/// struct SlowCallLogger: CallObserver {
///     func callEnded(_ events: [CallEvent]) {
///         guard let first = events.first, let last = events.last, last.at - first.at > .seconds(1) else { return }
///         print(events)
///     }
/// }
/// ```
public protocol CallObserver: Sendable {
    /// One event of a call, in order for each call.
    func observe(_ event: CallEvent)
    /// A call ended (its last event is `callFinished`); all its events, in order.
    func callEnded(_ events: [CallEvent])
}

extension CallObserver {
    /// Does nothing.
    public func observe(_ event: CallEvent) {}
    /// Does nothing.
    public func callEnded(_ events: [CallEvent]) {}
}

/// Feeds one observer from a queue of its own, on a task of its own.
final class ObserverFeed: Sendable {
    enum Item: Sendable {
        case event(CallEvent)
        case ended([CallEvent])
    }

    private let continuation: AsyncStream<Item>.Continuation

    init(_ observer: any CallObserver) {
        let (stream, continuation) = AsyncStream.makeStream(of: Item.self, bufferingPolicy: .bufferingNewest(4096))
        self.continuation = continuation
        Task.detached {
            for await item in stream {
                switch item {
                case .event(let event): observer.observe(event)
                case .ended(let events): observer.callEnded(events)
                }
            }
        }
    }

    func send(_ item: Item) {
        continuation.yield(item)
    }

    deinit {
        continuation.finish()
    }
}
