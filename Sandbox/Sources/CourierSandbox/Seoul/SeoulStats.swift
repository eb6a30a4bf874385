/// What `GET /seoul/_stats` answers: the stand-in's counters since start or the last reset.
///
/// ```swift
/// let stats = try await client.request(sandbox.get("/seoul/_stats"), as: SeoulStats.self)
/// #expect(stats.requests == 1 + 4)   // the probe and four pages
/// ```
public struct SeoulStats: Codable, Sendable, Equatable {
    /// API requests (`/seoul/{KEY}/…`) received.
    public var requests: Int
    /// API requests waiting for their answer now.
    public var inFlight: Int
    /// The most that ever waited at once.
    public var maxInFlight: Int
    /// Requests whose client went away while they waited (a cancelled load).
    public var disconnects: Int
    /// Failures served by the failing-page knob.
    public var injectedFailures: Int
    /// `START-END` of each API request, in arrival order.
    public var ranges: [String]

    /// A snapshot.
    public init(requests: Int = 0, inFlight: Int = 0, maxInFlight: Int = 0, disconnects: Int = 0, injectedFailures: Int = 0, ranges: [String] = []) {
        self.requests = requests
        self.inFlight = inFlight
        self.maxInFlight = maxInFlight
        self.disconnects = disconnects
        self.injectedFailures = injectedFailures
        self.ranges = ranges
    }
}

/// The stand-in's knobs, as `POST /seoul/_control` sets them and answers them.
public struct SeoulKnobs: Codable, Sendable, Equatable {
    /// Every API answer waits this long first.
    public var latencyMs: Int = 0
    /// Requests whose START is this fail (nil: none).
    public var failStart: Int?
    /// How many times they fail before answering normally (default: always).
    public var failTimes: Int = Int.max
    /// How they fail: `"503"` (HTTP 503, transient) or a result code such as `"ERROR-500"` (HTTP 200).
    public var failWith: String = "503"
    /// Rows in the data set (default 3,512).
    public var rows: Int = SeoulDataset.defaultCount
    /// Hostile rows: every title, place and fee carries terminal escape sequences (a colour, a
    /// title set, an 8-bit CSI) and no homepage is an http(s) link (`javascript:` or none) — for
    /// clients that must not hand network text to a terminal or a browser.
    public var hostile: Bool = false

    /// The defaults.
    public init() {}
}
