/// One item of the sandbox's `/items`.
public struct SampleItem: Codable, Sendable, Equatable {
    /// The item's position, from 0.
    public var id: Int
    /// "Item \(id)".
    public var title: String

    /// Creates an item.
    public init(id: Int, title: String) {
        self.id = id
        self.title = title
    }
}

/// A page of the sandbox's `/items?total=&offset=&limit=`.
public struct ItemPage: Codable, Sendable {
    /// How many items there are in all.
    public var total: Int
    /// The first item's position.
    public var offset: Int
    /// The items of this page.
    public var items: [SampleItem]

    /// Creates a page.
    public init(total: Int, offset: Int, items: [SampleItem]) {
        self.total = total
        self.offset = offset
        self.items = items
    }
}
