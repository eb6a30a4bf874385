/// What `GET /outage/{key}/stats` answers: where the key's requests fell around its outage, and
/// how soon after it a request succeeded again.
///
/// ```swift
/// let stats = try await client.request(endpoint(for: "/outage/orders/stats"), as: OutageStats.self)
/// #expect(stats.duringOutage <= 5)                       // the breaker opened
/// #expect(try #require(stats.firstOkAfterOutageMs) < 2000)   // and let a probe through soon after
/// ```
public struct OutageStats: Codable, Sendable, Equatable {
    /// Requests for this key since the last reset.
    public var requests: Int
    /// Of those, the ones that arrived before the outage (answered 200).
    public var beforeOutage: Int
    /// Of those, the ones that arrived during the outage (answered the outage's status).
    public var duringOutage: Int
    /// Of those, the ones that arrived after the outage (answered 200).
    public var afterOutage: Int
    /// Milliseconds from the outage's end to the first request answered 200 after it; `null`
    /// until there is one.
    public var firstOkAfterOutageMs: Int?

    /// Creates a snapshot.
    public init(requests: Int = 0, beforeOutage: Int = 0, duringOutage: Int = 0, afterOutage: Int = 0, firstOkAfterOutageMs: Int? = nil) {
        self.requests = requests
        self.beforeOutage = beforeOutage
        self.duringOutage = duringOutage
        self.afterOutage = afterOutage
        self.firstOkAfterOutageMs = firstOkAfterOutageMs
    }

    private enum CodingKeys: String, CodingKey {
        case requests, beforeOutage, duringOutage, afterOutage, firstOkAfterOutageMs
    }

    /// Writes every field, `firstOkAfterOutageMs` as `null` while there is none (a synthesized
    /// encoder would leave the key out).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(requests, forKey: .requests)
        try container.encode(beforeOutage, forKey: .beforeOutage)
        try container.encode(duringOutage, forKey: .duringOutage)
        try container.encode(afterOutage, forKey: .afterOutage)
        try container.encode(firstOkAfterOutageMs, forKey: .firstOkAfterOutageMs)
    }
}
