/// What `GET /tail/{key}/stats` answers: how many of the key's requests were slow, and how many
/// clients stayed for their answer.
///
/// ```swift
/// let stats = try await client.request(endpoint(for: "/tail/search/stats"), as: TailStats.self)
/// #expect(stats.disconnected == stats.slow)   // every slow copy lost its race and was cancelled
/// ```
public struct TailStats: Codable, Sendable, Equatable {
    /// Requests for this key since the last reset.
    public var requests: Int
    /// Of those, the ones drawn slow (they wait `slowMs`).
    public var slow: Int
    /// Of those, the ones drawn fast (they wait `fastMs`).
    public var fast: Int
    /// Requests that waited to the end and were answered.
    public var completed: Int
    /// Requests whose client went away during the wait (no answer was written).
    /// `requests - completed - disconnected` are waiting now.
    public var disconnected: Int

    /// Creates a snapshot.
    public init(requests: Int = 0, slow: Int = 0, fast: Int = 0, completed: Int = 0, disconnected: Int = 0) {
        self.requests = requests
        self.slow = slow
        self.fast = fast
        self.completed = completed
        self.disconnected = disconnected
    }
}
