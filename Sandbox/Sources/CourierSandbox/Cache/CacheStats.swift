/// What `GET /cache/{key}/stats` answers: how many requests for the key reached the server.
///
/// ```swift
/// let stats = try await client.request(sandbox.get("/cache/feed/stats"), as: CacheStats.self)
/// #expect(stats.hits == 1)   // the second GET was a cache hit
/// ```
public struct CacheStats: Codable, Sendable, Equatable {
    /// Requests for this key (any method).
    public var hits: Int
    /// Of them, conditional ones (`If-None-Match` or `If-Modified-Since`).
    public var conditional: Int
    /// Of them, ones answered `304 Not Modified`.
    public var notModified: Int

    /// Creates a snapshot.
    public init(hits: Int = 0, conditional: Int = 0, notModified: Int = 0) {
        self.hits = hits
        self.conditional = conditional
        self.notModified = notModified
    }
}
