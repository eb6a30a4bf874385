/// A dictionary that keeps at most ``limit`` keys: adding one more forgets the key added first,
/// so a client naming a new key in every request cannot grow the server without bound.
struct BoundedTable<Value: Sendable>: Sendable {
    /// The most keys kept.
    let limit: Int
    private var values: [String: Value] = [:]
    /// Keys in the order they were added, oldest first.
    private var order: [String] = []

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// The value of `key`, or nil.
    subscript(key: String) -> Value? { values[key] }

    /// Changes the value of `key` (`initial` when it is new, which may forget the oldest key).
    mutating func update(_ key: String, initial: @autoclosure () -> Value, _ change: (inout Value) -> Void) {
        if values[key] == nil {
            if order.count >= limit { values[order.removeFirst()] = nil }
            order.append(key)
        }
        change(&values[key, default: initial()])
    }
}
