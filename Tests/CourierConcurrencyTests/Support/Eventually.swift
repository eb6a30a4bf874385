import Testing

/// Waits (in real time, up to `timeout`) until `condition` holds; records an issue otherwise.
@discardableResult
func eventually(
    timeout: Duration = .seconds(10),
    _ comment: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: @Sendable () async -> Bool
) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while clock.now < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(1))
    }
    if await condition() { return true }
    Issue.record(comment ?? "condition not met within \(timeout)", sourceLocation: sourceLocation)
    return false
}

/// An actor-protected list of things that happened, for assertions.
actor Recorder<Entry: Sendable> {
    private(set) var entries: [Entry] = []

    func append(_ entry: Entry) { entries.append(entry) }
    var count: Int { entries.count }
}

/// Counts concurrent operations and remembers the highest count.
actor ConcurrencyGauge {
    private(set) var current = 0
    private(set) var highest = 0
    private(set) var total = 0

    func enter() {
        current += 1
        total += 1
        highest = max(highest, current)
    }

    func leave() { current -= 1 }
}
