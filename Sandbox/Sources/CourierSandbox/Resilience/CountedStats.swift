/// What `GET /counted/{key}/stats` answers: how often the key was fetched, and how many at once.
///
/// ```swift
/// let stats = try await client.request(endpoint(for: "/counted/feed/stats"), as: CountedStats.self)
/// #expect(stats.hits == 1)   // ten callers, one request upstream
/// ```
public struct CountedStats: Codable, Sendable, Equatable {
    /// Requests for this key since the last reset.
    public var hits: Int
    /// Requests for this key waiting for their answer now.
    public var inFlight: Int
    /// The most that ever waited at once.
    public var maxInFlight: Int
    /// Requests whose client went away while they waited.
    public var disconnects: Int

    /// Creates a snapshot.
    public init(hits: Int = 0, inFlight: Int = 0, maxInFlight: Int = 0, disconnects: Int = 0) {
        self.hits = hits
        self.inFlight = inFlight
        self.maxInFlight = maxInFlight
        self.disconnects = disconnects
    }
}
