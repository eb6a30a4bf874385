public import Courier
import CourierConcurrency

extension HackerNewsClient {
    /// The whole comment tree of item `id` (empty when the item does not exist or has no
    /// comments). See ``comments(of:onLevel:)-(Item,_)``.
    ///
    /// ```swift
    /// let thread = try await hackerNews.comments(of: 8863)
    /// ```
    public func comments(of id: Int, onLevel: (@Sendable ([CommentNode]) -> Void)? = nil) async throws(NetworkError) -> [CommentNode] {
        guard let item = try await item(id: id) else { return [] }
        return try await comments(of: item, onLevel: onLevel)
    }

    /// The whole comment tree under `item`, fetched breadth-first: all top-level comments (at
    /// most ``maxConcurrent`` at once), then all their replies, and so on — so 1,000 comments
    /// take about `depth + 1000 ÷ maxConcurrent` round trips, not 1,000. After each level
    /// `onLevel` gets the tree so far (top-level comments first), for a reader that shows them early.
    ///
    /// Replies keep the API's `kids` order; text is plain text (``HTMLText``). A deleted or dead
    /// comment with replies stays as a placeholder (`deleted: true`, no text); without replies
    /// it is left out, as is a comment whose fetch failed (with its replies). Cancelling the
    /// calling task throws `NetworkError.taskCancelled`.
    ///
    /// At most ``CommentNode/maxDepth`` levels are fetched: replies nested deeper are cut off
    /// (not fetched, not in the tree), so a server that answers with an endless chain of replies
    /// costs at most that many round trips and never a deep recursion.
    ///
    /// ```swift
    /// let thread = try await hackerNews.comments(of: story) { soFar in print("\(soFar.count) top-level comments") }
    /// ```
    public func comments(of item: Item, onLevel: (@Sendable ([CommentNode]) -> Void)? = nil) async throws(NetworkError) -> [CommentNode] {
        let client = self
        var fetched: [Int: Item] = [:]
        var seen: Set<Int> = [item.id]
        var level = (item.kids ?? []).filter { seen.insert($0).inserted }
        var depth = 1
        while !level.isEmpty {
            var arrived: [Int: Item] = [:]
            for await finished in level.mergedResults(limit: maxConcurrent, { id in try await client.item(id: id) }) {
                if case .success(let comment?) = finished.result { arrived[finished.element] = comment }
            }
            if Task.isCancelled { throw .taskCancelled }
            var next: [Int] = []
            for id in level {
                guard let comment = arrived[id] else { continue }
                fetched[id] = comment
                // Past the bound the replies are cut off: the tree could not hold them anyway.
                guard depth < CommentNode.maxDepth else { continue }
                // A reply seen before (bad data with a cycle) is not fetched again.
                next += (comment.kids ?? []).filter { seen.insert($0).inserted }
            }
            level = next
            depth += 1
            onLevel?(CommentNode.tree(item.kids ?? [], items: fetched))
        }
        return CommentNode.tree(item.kids ?? [], items: fetched)
    }
}
