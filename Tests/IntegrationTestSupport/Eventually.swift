import Testing

// Shared by every test target (see Package.swift): polling, recording and gauges for assertions.

/// Waits (in real time, up to `timeout`) until `condition` holds (a throw counts as "not yet");
/// records an issue and returns false otherwise.
@discardableResult
public func eventually(
    timeout: Duration = .seconds(30),
    _ comment: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () async throws -> Bool
) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while clock.now < deadline {
        if (try? await condition()) == true { return true }
        try? await Task.sleep(for: .milliseconds(1))
    }
    if (try? await condition()) == true { return true }
    Issue.record(comment ?? "condition not met within \(timeout)", sourceLocation: sourceLocation)
    return false
}

/// An actor-protected list of things that happened, for assertions.
public actor Recorder<Entry: Sendable> {
    public private(set) var entries: [Entry] = []

    public init() {}

    public func append(_ entry: Entry) { entries.append(entry) }
    public var count: Int { entries.count }
}

/// Counts concurrent operations and remembers the highest count.
public actor ConcurrencyGauge {
    public private(set) var current = 0
    public private(set) var highest = 0
    public private(set) var total = 0

    public init() {}

    public func enter() {
        current += 1
        total += 1
        highest = max(highest, current)
    }

    public func leave() { current -= 1 }
}
