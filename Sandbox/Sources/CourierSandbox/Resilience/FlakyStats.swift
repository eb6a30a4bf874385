/// What `GET /flaky/{key}/stats` answers: every request the key has seen, from the server's side.
///
/// ```swift
/// let stats = try await client.request(endpoint(for: "/flaky/upload/stats"), as: FlakyStats.self)
/// #expect(stats.attempts == 3 && stats.attemptTimesMs[2] - stats.attemptTimesMs[1] >= 200)
/// ```
public struct FlakyStats: Codable, Sendable, Equatable {
    /// Requests for this key since the last reset.
    public var attempts: Int
    /// Of those, the ones answered with the failure status.
    public var failures: Int
    /// Of those, the ones answered 200.
    public var successes: Int
    /// When each attempt arrived, in milliseconds since the key's first request (the first is 0).
    public var attemptTimesMs: [Int]
    /// The W3C `traceparent` each attempt carried, in order ("" for one that carried none).
    public var traceParents: [String]

    /// Creates a snapshot.
    public init(attempts: Int = 0, failures: Int = 0, successes: Int = 0, attemptTimesMs: [Int] = [], traceParents: [String] = []) {
        self.attempts = attempts
        self.failures = failures
        self.successes = successes
        self.attemptTimesMs = attemptTimesMs
        self.traceParents = traceParents
    }
}
