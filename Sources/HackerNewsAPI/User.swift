/// A Hacker News user (`user/{id}.json`); only users with public activity exist in the API.
///
/// ```swift
/// let user: User? = try await client.request(HackerNewsAPI.user(id: "pg"))
/// print(user?.karma ?? 0)
/// ```
public struct User: Codable, Sendable, Hashable, Identifiable {
    /// The user name (case-sensitive).
    public var id: String
    /// Creation time, Unix seconds.
    public var created: Int
    /// The user's karma.
    public var karma: Int
    /// The self-description, as HTML (see ``HTMLText``).
    public var about: String?
    /// Ids of the user's stories, polls and comments, newest first.
    public var submitted: [Int]?

    /// A user.
    ///
    /// ```swift
    /// let user = User(id: "pg", created: 1_160_418_092, karma: 155_111)
    /// ```
    public init(id: String, created: Int, karma: Int, about: String? = nil, submitted: [Int]? = nil) {
        self.id = id
        self.created = created
        self.karma = karma
        self.about = about
        self.submitted = submitted
    }
}

/// What changed recently (`updates.json`): item ids and user names.
///
/// ```swift
/// let updates: Updates = try await client.request(HackerNewsAPI.updates)
/// ```
public struct Updates: Codable, Sendable, Hashable {
    /// Recently changed item ids.
    public var items: [Int]
    /// Recently changed user names.
    public var profiles: [String]

    /// The changes.
    ///
    /// ```swift
    /// let none = Updates(items: [], profiles: [])
    /// ```
    public init(items: [Int], profiles: [String]) {
        self.items = items
        self.profiles = profiles
    }
}
