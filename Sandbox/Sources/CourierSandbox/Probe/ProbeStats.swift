/// What `GET /probe/stats` answers: requests in flight now, the most ever at once, how many in
/// all, and how many clients went away before their answer was complete.
///
/// ```swift
/// let stats = try await client.request(endpoint(for: "/probe/stats"), as: ProbeStats.self)
/// #expect(stats.maxInFlight <= 32)
/// ```
public struct ProbeStats: Codable, Sendable, Equatable {
    /// Requests on probe routes being answered now.
    public var inFlight: Int
    /// The most that were ever answered at once since the last reset.
    public var maxInFlight: Int
    /// Requests on probe routes since the last reset.
    public var total: Int
    /// Clients that left before their answer was complete.
    public var disconnects: Int

    /// Creates a snapshot.
    public init(inFlight: Int, maxInFlight: Int, total: Int, disconnects: Int) {
        self.inFlight = inFlight
        self.maxInFlight = maxInFlight
        self.total = total
        self.disconnects = disconnects
    }
}
