import Synchronization

/// A clock whose sleeps return at once and are recorded: test code that waits (backoff,
/// `Retry-After`, polling) runs instantly, and the test asserts how long it would have waited.
///
/// ```swift
/// let clock = RecordingClock()
/// let retry = RetryMiddleware(clock: clock, random: { 0.5 })
/// // … three failed attempts later:
/// #expect(clock.sleeps == [.milliseconds(250), .milliseconds(500)])
/// ```
public final class RecordingClock: Clock, Sendable {
    /// A point on the clock: the total of the sleeps so far.
    public struct Instant: InstantProtocol {
        /// Time since the clock was made.
        public var offset: Duration

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let state = Mutex((now: Instant(offset: .zero), sleeps: [Duration]()))

    /// A clock at zero with no sleeps.
    public init() {}

    /// The sleeps asked for so far, in order.
    public var sleeps: [Duration] { state.withLock { $0.sleeps } }

    public var now: Instant { state.withLock { $0.now } }
    public var minimumResolution: Duration { .zero }

    /// Records the sleep, moves ``now`` to `deadline`, and returns (throws if the task is cancelled).
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        state.withLock { state in
            state.sleeps.append(state.now.duration(to: deadline))
            if state.now < deadline { state.now = deadline }
        }
        await Task.yield()
    }
}
