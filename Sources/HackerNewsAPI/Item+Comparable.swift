import Foundation

extension Item: Comparable {
    /// Newest first, as the seed's `stories.sorted()`: a later `time` comes first, then (same
    /// time) the larger `id`; items without a time come after every timed one. The same item in
    /// two states (a score read twice) is ordered by its content, so the order is total and two
    /// items are equal exactly when neither comes first.
    ///
    /// ```swift
    /// let newestFirst = stories.sorted()
    /// ```
    public static func < (lhs: Item, rhs: Item) -> Bool {
        switch (lhs.time, rhs.time) {
        case (let left?, let right?) where left != right: return left > right
        case (.some, nil): return true
        case (nil, .some): return false
        default: break
        }
        if lhs.id != rhs.id { return lhs.id > rhs.id }
        guard lhs != rhs else { return false }
        return lhs.canonicalJSON.lexicographicallyPrecedes(rhs.canonicalJSON)
    }

    /// The item as JSON with sorted keys: equal exactly when the items are (a tie-break only).
    private var canonicalJSON: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(self)) ?? Data()
    }
}
