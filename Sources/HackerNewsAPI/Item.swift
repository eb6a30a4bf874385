public import Foundation

/// One Hacker News item — a story, comment, job, poll or poll option — with every field of the
/// API's `item/{id}.json`. Only `id` is always present.
///
/// - An Ask HN story has `text` and no `url`; a job's `url` may be `""` (see ``host``).
/// - A deleted item has `deleted: true` and neither `by` nor `text`; a dead one has
///   `dead: true` and keeps `by` (see ``isAvailable``).
/// - `text` is HTML as the API gives it; ``plainText`` is the same as plain text.
///
/// ```swift
/// let item: Item? = try await client.request(HackerNewsAPI.item(id: 8863))
/// print(item?.title ?? "no such item", item?.host ?? "")
/// ```
public struct Item: Codable, Sendable, Hashable, Identifiable {
    /// The item's unique id.
    public var id: Int
    /// True when the item was deleted (it then has no `by` and no `text`).
    public var deleted: Bool?
    /// What kind of item it is.
    public var type: ItemType?
    /// The author's user name.
    public var by: String?
    /// Creation time, Unix seconds.
    public var time: Int?
    /// The comment, story or poll text, as HTML.
    public var text: String?
    /// True when the item is dead (flagged or killed; it keeps `by`).
    public var dead: Bool?
    /// A comment's parent: another comment or the story.
    public var parent: Int?
    /// A poll option's poll.
    public var poll: Int?
    /// Ids of the replies, in the API's (ranked) display order.
    public var kids: [Int]?
    /// The story's link (absent for Ask HN; may be `""` for a job).
    public var url: String?
    /// The story's score, or a poll option's votes.
    public var score: Int?
    /// The title of a story, poll or job.
    public var title: String?
    /// A poll's options, in display order.
    public var parts: [Int]?
    /// A story's or poll's total comment count.
    public var descendants: Int?

    /// An item; only `id` is required, as in the API.
    ///
    /// ```swift
    /// let story = Item(id: 1, type: .story, by: "pg", time: 1_160_418_111, title: "Y Combinator")
    /// ```
    public init(
        id: Int, deleted: Bool? = nil, type: ItemType? = nil, by: String? = nil, time: Int? = nil, text: String? = nil,
        dead: Bool? = nil, parent: Int? = nil, poll: Int? = nil, kids: [Int]? = nil, url: String? = nil, score: Int? = nil,
        title: String? = nil, parts: [Int]? = nil, descendants: Int? = nil
    ) {
        self.id = id
        self.deleted = deleted
        self.type = type
        self.by = by
        self.time = time
        self.text = text
        self.dead = dead
        self.parent = parent
        self.poll = poll
        self.kids = kids
        self.url = url
        self.score = score
        self.title = title
        self.parts = parts
        self.descendants = descendants
    }

    /// True when the item was deleted.
    public var isDeleted: Bool { deleted == true }
    /// True when the item is dead.
    public var isDead: Bool { dead == true }
    /// Neither deleted nor dead: what a reader shows (``HackerNewsClient/story(id:)`` answers nil otherwise).
    public var isAvailable: Bool { !isDeleted && !isDead }

    /// The link, or nil when the item has none (absent, or a job's `""`).
    ///
    /// ```swift
    /// Item(id: 1, url: "").link   // nil
    /// ```
    public var link: URL? {
        guard let url, !url.isEmpty else { return nil }
        return URL(string: url)
    }

    /// The link's host name (nil without a link), the text a reader shows next to the title —
    /// the seed's "host as link text".
    ///
    /// ```swift
    /// Item(id: 8863, url: "http://www.getdropbox.com/u/2/screencast.html").host   // "www.getdropbox.com"
    /// ```
    public var host: String? {
        guard let host = link?.host, !host.isEmpty else { return nil }
        return host
    }

    /// ``text`` converted from HN's HTML to plain text (see ``HTMLText``); nil without text.
    ///
    /// ```swift
    /// Item(id: 1, text: "It&#x27;s<p>two").plainText   // "It's\n\ntwo"
    /// ```
    public var plainText: String? { text.map(HTMLText.plainText) }

    /// ``time`` as a `Date`.
    public var date: Date? { time.map { Date(timeIntervalSince1970: TimeInterval($0)) } }
}

/// The `type` of an ``Item``: `story`, `comment`, `job`, `poll` or `pollopt` — and any other
/// text the API may add later (decoding never fails on a new kind).
///
/// ```swift
/// if item.type == .job { print("hiring:", item.title ?? "") }
/// ```
public struct ItemType: RawRepresentable, Codable, Sendable, Hashable, CustomStringConvertible {
    /// The API's text, e.g. `story`.
    public var rawValue: String

    /// The type for the API's text.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A story (links, Ask HN, Show HN).
    public static let story = ItemType(rawValue: "story")
    /// A comment.
    public static let comment = ItemType(rawValue: "comment")
    /// A job ad.
    public static let job = ItemType(rawValue: "job")
    /// A poll.
    public static let poll = ItemType(rawValue: "poll")
    /// One option of a poll.
    public static let pollOption = ItemType(rawValue: "pollopt")

    /// Decodes the plain string.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Encodes the plain string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The API's text.
    public var description: String { rawValue }
}
