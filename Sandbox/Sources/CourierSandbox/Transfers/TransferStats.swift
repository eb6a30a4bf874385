/// What `GET /files/stats?key=…` answers: the server's view of every transfer route request
/// (`/files`, `/upload`, `/ndjson`) that named the key.
///
/// ```swift
/// let stats = try await client.request(endpoint(for: "/files/stats?key=resume"), as: TransferStats.self)
/// #expect(stats.partial == 1 && stats.ranges == ["bytes=524288-"])   // resumed once, where the cut was
/// ```
public struct TransferStats: Codable, Sendable, Equatable {
    /// Requests with this key.
    public var requests: Int
    /// `200` answers: whole files (and HEADs), NDJSON streams, upload receipts.
    public var full: Int
    /// `206` answers.
    public var partial: Int
    /// `416` answers.
    public var unsatisfiable: Int
    /// `304` answers (an `If-None-Match` that named the ETag).
    public var notModified: Int
    /// Answers cut on purpose by `cutAt` (a `200` or `206` counted above, whose body stopped early).
    public var cuts: Int
    /// Response body bytes handed to the connection (files and NDJSON streams; not HEADs, not receipts).
    public var bytesWritten: Int
    /// Request body bytes read by `/upload`.
    public var bytesReceived: Int
    /// The `Range` fields received, as sent, the last 16 in order (requests without one add nothing).
    public var ranges: [String]
    /// The `If-Range` fields received, as sent, the last 16 in order.
    public var ifRanges: [String]

    /// Creates a snapshot.
    public init(
        requests: Int = 0, full: Int = 0, partial: Int = 0, unsatisfiable: Int = 0, notModified: Int = 0, cuts: Int = 0, bytesWritten: Int = 0,
        bytesReceived: Int = 0, ranges: [String] = [], ifRanges: [String] = []
    ) {
        self.requests = requests
        self.full = full
        self.partial = partial
        self.unsatisfiable = unsatisfiable
        self.notModified = notModified
        self.cuts = cuts
        self.bytesWritten = bytesWritten
        self.bytesReceived = bytesReceived
        self.ranges = ranges
        self.ifRanges = ifRanges
    }
}
