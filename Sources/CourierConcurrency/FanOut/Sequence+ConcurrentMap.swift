extension Sequence where Element: Sendable {
    /// Transforms every element with at most `limit` transforms running at once, and returns
    /// the results in the sequence's order.
    ///
    /// The sequence is read lazily: a new transform starts only when one finishes, so a huge
    /// (or lazy) sequence never creates more than `limit` child tasks at a time. The first
    /// error cancels the transforms still running and is rethrown; cancelling the calling
    /// task cancels them too. A `limit` below 1 is treated as 1.
    ///
    /// ```swift
    /// let stories = try await ids.concurrentMap(limit: 8) { id in
    ///     try await client.request(HackerNewsAPI.item(id), as: Story.self)
    /// }
    /// ```
    public func concurrentMap<T: Sendable>(
        limit: Int,
        _ transform: @escaping @Sendable (Element) async throws -> T
    ) async throws -> [T] {
        let limit = Swift.max(1, limit)
        return try await withThrowingTaskGroup(of: (Int, T).self, returning: [T].self) { group in
            var results: [T?] = []
            results.reserveCapacity(underestimatedCount)
            var iterator = makeIterator()
            var nextIndex = 0
            var running = 0

            func startNext() -> Bool {
                guard let element = iterator.next() else { return false }
                let index = nextIndex
                nextIndex += 1
                results.append(nil)
                group.addTask { (index, try await transform(element)) }
                return true
            }

            while running < limit, startNext() {
                running += 1
            }
            while let (index, value) = try await group.next() {
                results[index] = value
                if !startNext() { running -= 1 }
            }
            return results.compactMap { $0 }
        }
    }
}
