/// What `GET /ratelimit/{key}/stats` answers: how the key's announced limit was kept.
///
/// ```swift
/// let stats = try await client.request(endpoint(for: "/ratelimit/pace/stats"), as: RateLimitStats.self)
/// #expect(stats.limited == 0)   // nobody was answered 429
/// ```
public struct RateLimitStats: Codable, Sendable, Equatable {
    /// Requests for this key.
    public var requests: Int
    /// Of those, the ones answered 429 (over the limit).
    public var limited: Int
    /// Windows the key has opened.
    public var windows: Int

    /// Creates a snapshot.
    public init(requests: Int = 0, limited: Int = 0, windows: Int = 0) {
        self.requests = requests
        self.limited = limited
        self.windows = windows
    }
}
