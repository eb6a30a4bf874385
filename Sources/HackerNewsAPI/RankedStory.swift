/// A story with its 1-based rank in the list it came from: what
/// ``HackerNewsClient/stories(list:)`` delivers. Its item's fields read through:
/// `story.title` is `story.item.title`.
///
/// ```swift
/// for try await stories in hackerNews.stories(list: .top) {
///     print(stories.map { "\($0.rank). \($0.title ?? "")" }.joined(separator: "\n"))
/// }
/// ```
@dynamicMemberLookup
public struct RankedStory: Sendable, Hashable, Identifiable {
    /// The 1-based position of the story's id in the list.
    public var rank: Int
    /// The story.
    public var item: Item

    /// A ranked story.
    ///
    /// ```swift
    /// let first = RankedStory(rank: 1, item: Item(id: 8863, type: .story))
    /// ```
    public init(rank: Int, item: Item) {
        self.rank = rank
        self.item = item
    }

    /// The item's id.
    public var id: Int { item.id }

    /// The item's fields, e.g. `story.title`.
    public subscript<Value>(dynamicMember keyPath: KeyPath<Item, Value>) -> Value {
        item[keyPath: keyPath]
    }
}
