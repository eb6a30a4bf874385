/// What `GET /sse/stats?key=…` answers: the server's view of one named event stream.
///
/// ```swift
/// let stats = try await client.request(endpoint(for: "/sse/stats?key=ticker"), as: SSEStats.self)
/// #expect(stats.lastEventIDs == ["3"])   // the client resumed once, after event 3
/// ```
public struct SSEStats: Codable, Sendable, Equatable {
    /// Requests to `/sse/events` with this key (a 204 for a finished stream counts too).
    public var connections: Int
    /// Streams still being written.
    public var open: Int
    /// Streams that ended because the client went away before the end (not `dropAfter`).
    public var disconnects: Int
    /// Streams the server ended normally (all events sent, a hang that ran out, or a 204).
    public var completed: Int
    /// The `Last-Event-ID` headers received, in order (requests without one add nothing).
    public var lastEventIDs: [String]

    /// Creates a snapshot.
    public init(connections: Int = 0, open: Int = 0, disconnects: Int = 0, completed: Int = 0, lastEventIDs: [String] = []) {
        self.connections = connections
        self.open = open
        self.disconnects = disconnects
        self.completed = completed
        self.lastEventIDs = lastEventIDs
    }
}
