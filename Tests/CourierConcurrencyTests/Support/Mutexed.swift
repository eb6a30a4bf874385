import Synchronization

/// A value behind a lock, for collecting from `@Sendable` callbacks in tests.
final class Mutexed<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>

    init(_ value: Value) { storage = Mutex(value) }

    var value: Value { storage.withLock { $0 } }

    func mutate(_ body: (inout Value) -> Void) { storage.withLock { body(&$0) } }
}
