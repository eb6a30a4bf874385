public import CourierTransportCore
import Foundation
import Synchronization

/// Sees every call of a `NetworkClient`: each `CallStep` as it happens and each call's whole
/// timeline when it ends. Installed with `NetworkClient.Configuration.observers` (none by default).
///
/// Observers run off the calls' path, each on a thread of its own fed in order: an observer
/// that is slow, or blocks (a synchronous write, a lock), never stalls or fails a call, nor the
/// tasks of the process (when it falls 4,096 items behind, the oldest undelivered are dropped).
///
/// ```swift
/// struct SlowCallLogger: CallObserver {
///     var observesEachStep: Bool { false }
///     func callEnded(_ steps: [CallStep]) {
///         guard let first = steps.first, let last = steps.last, last.at - first.at > .seconds(1) else { return }
///         print(steps)
///     }
/// }
/// ```
public protocol CallObserver: Sendable {
    /// Whether ``observe(_:)`` wants each step as it happens (true by default); an observer that
    /// needs only whole timelines says false, and is fed once per call.
    var observesEachStep: Bool { get }
    /// One step of a call, in order for each call.
    func observe(_ step: CallStep)
    /// A call ended (its last step is `callFinished`); all its steps, in order.
    func callEnded(_ steps: [CallStep])
}

extension CallObserver {
    /// True: every step is delivered to ``observe(_:)``.
    public var observesEachStep: Bool { true }
    /// Does nothing.
    public func observe(_ step: CallStep) {}
    /// Does nothing.
    public func callEnded(_ steps: [CallStep]) {}
}

/// Feeds one observer from a bounded queue, on a thread of its own — not a task: an observer
/// that blocks would otherwise hold one of the few threads every task of the process runs on.
final class ObserverFeed: Sendable {
    enum Item: Sendable {
        case event(CallStep)
        case ended([CallStep])
    }

    /// Items not yet delivered, at most this many.
    static let capacity = 4096

    private struct Queue {
        var items: [Item] = []
        var head = 0
        var closed = false
    }

    /// The queue and its signal, shared with the thread.
    private final class Shared: Sendable {
        let queue = Mutex(Queue())
        let ready = DispatchSemaphore(value: 0)
    }

    private let shared = Shared()
    /// Whether each step is sent, or only whole timelines.
    let wantsEachStep: Bool

    init(_ observer: any CallObserver) {
        wantsEachStep = observer.observesEachStep
        let shared = self.shared
        let thread = Thread {
            while true {
                shared.ready.wait()
                // The next item moved out of the queue (a copy of a timeline, and an optional of an
                // optional to tell "closed" apart, cost 2,000 instructions a call: callgrind).
                let (next, closed) = shared.queue.withLock { queue -> (Item?, Bool) in
                    guard queue.head < queue.items.count else { return (nil, queue.closed) }
                    var taken = Item.ended([])
                    swap(&taken, &queue.items[queue.head])
                    queue.head += 1
                    if queue.head == queue.items.count {
                        queue.head = 0
                        // A small buffer is kept for the next call's item (one allocation a call otherwise).
                        queue.items.removeAll(keepingCapacity: queue.items.capacity <= 64)
                    }
                    return (taken, false)
                }
                guard let item = next else {
                    if closed { return }  // closed and drained
                    continue
                }
                switch item {
                case .event(let event): observer.observe(event)
                case .ended(let events): observer.callEnded(events)
                }
            }
        }
        thread.name = "courier.observer"
        thread.start()
    }

    func send(_ item: Item) {
        let added = shared.queue.withLock { queue -> Bool in
            guard !queue.closed else { return false }
            if queue.items.count - queue.head >= Self.capacity {
                queue.head += 1  // the oldest undelivered item is dropped; its signal stays for the new one
                queue.items.append(item)
                return false
            }
            queue.items.append(item)
            return true
        }
        if added { shared.ready.signal() }
    }

    deinit {
        shared.queue.withLock { $0.closed = true }
        shared.ready.signal()
    }
}
