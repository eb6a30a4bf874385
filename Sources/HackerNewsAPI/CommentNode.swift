/// One comment of a thread, with its replies: what `HackerNewsClient.comments(of:onLevel:)` answers.
///
/// `text` is plain text (converted from HN's HTML by ``HTMLText``). A deleted or dead comment
/// that has replies stays as a placeholder — `deleted: true`, no `by`, no `text` — so the
/// thread keeps its shape; one without replies is left out.
///
/// A tree is at most ``maxDepth`` levels deep: replies nested deeper are cut off, so a hostile
/// thread can neither make the client fetch without end nor overflow the stack of code that
/// walks the tree recursively (building it, ``count``, ``depth``, encoding, releasing it).
///
/// Encoded as JSON, every field is present (`null` when absent):
/// `{"id":…,"by":…,"time":…,"text":…,"deleted":false,"comments":[…]}`.
///
/// ```swift
/// func show(_ comments: [CommentNode], depth: Int = 0) {
///     for comment in comments {
///         print(String(repeating: "  ", count: depth) + (comment.text ?? "[deleted]"))
///         show(comment.comments, depth: depth + 1)
///     }
/// }
/// ```
public struct CommentNode: Codable, Sendable, Hashable, Identifiable {
    /// The comment's item id.
    public var id: Int
    /// The author (nil for a placeholder).
    public var by: String?
    /// Creation time, Unix seconds.
    public var time: Int?
    /// The text as plain text (nil for a placeholder).
    public var text: String?
    /// True for the placeholder of a deleted or dead comment that has replies.
    public var deleted: Bool
    /// The replies, in the API's `kids` order.
    public var comments: [CommentNode]

    /// A comment.
    ///
    /// ```swift
    /// let reply = CommentNode(id: 2, by: "norvig", time: 1_314_211_127, text: "Aw shucks", deleted: false, comments: [])
    /// ```
    public init(id: Int, by: String?, time: Int?, text: String?, deleted: Bool, comments: [CommentNode]) {
        self.id = id
        self.by = by
        self.time = time
        self.text = text
        self.deleted = deleted
        self.comments = comments
    }

    /// The deepest level a comment tree reaches (top-level comments are level 1); replies below
    /// it are cut off. Real threads end far above it.
    public static let maxDepth = 256

    /// This comment and all its replies, depth first.
    public var count: Int { 1 + comments.reduce(0) { $0 + $1.count } }

    /// Levels below this one: 1 for a comment without replies.
    public var depth: Int { 1 + (comments.map(\.depth).max() ?? 0) }

    private enum CodingKeys: String, CodingKey {
        case id, by, time, text, deleted, comments
    }

    /// Encodes every field, absent ones as `null`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(by, forKey: .by)
        try container.encode(time, forKey: .time)
        try container.encode(text, forKey: .text)
        try container.encode(deleted, forKey: .deleted)
        try container.encode(comments, forKey: .comments)
    }
}

extension CommentNode {
    /// The tree under `ids` from the items fetched so far: unfetched ids are left out; a
    /// deleted or dead item becomes a placeholder when replies remain under it, else is left out.
    ///
    /// Bad data cannot make it explode: each item is placed once (its first place, depth first),
    /// so a reply listed twice or a cycle of replies adds nothing more, and nothing is placed
    /// below ``maxDepth``, so the recursion stays shallow whatever `items` holds.
    static func tree(_ ids: [Int], items: [Int: Item]) -> [CommentNode] {
        var placed: Set<Int> = []
        return tree(ids, items: items, level: 1, placed: &placed)
    }

    /// ``tree(_:items:)`` for `ids` at `level` (top-level comments are level 1).
    private static func tree(_ ids: [Int], items: [Int: Item], level: Int, placed: inout Set<Int>) -> [CommentNode] {
        guard level <= maxDepth else { return [] }
        var nodes: [CommentNode] = []
        for id in ids {
            guard let item = items[id], placed.insert(id).inserted else { continue }
            let replies = tree(item.kids ?? [], items: items, level: level + 1, placed: &placed)
            if item.isAvailable {
                nodes.append(CommentNode(id: id, by: item.by, time: item.time, text: item.plainText, deleted: false, comments: replies))
            } else if !replies.isEmpty {
                nodes.append(CommentNode(id: id, by: nil, time: item.time, text: nil, deleted: true, comments: replies))
            }
        }
        return nodes
    }
}
