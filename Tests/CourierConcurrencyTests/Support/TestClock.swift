import Synchronization

/// A manual clock for tests: time moves only when the test calls `advance`.
///
/// Sleepers are resumed in deadline order, with `now` set to each deadline as it is reached,
/// so code that stamps `clock.now` right after waking sees exact times.
final class TestClock: Clock, Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration

        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let id: Int
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [Sleeper] = []
        var nextID = 0
    }

    private let state = Mutex(State())

    var now: Instant { state.withLock { $0.now } }
    var minimumResolution: Duration { .zero }

    /// The number of tasks sleeping on this clock.
    var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// The deadlines of the sleeping tasks, soonest first.
    var deadlines: [Duration] { state.withLock { $0.sleepers.map(\.deadline.offset).sorted() } }

    func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow: (any Error)?? = state.withLock { state in
                    if Task.isCancelled { return .some(CancellationError()) }
                    if deadline <= state.now { return .some(nil) }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return .none
                }
                switch resumeNow {
                case .some(.some(let error)): continuation.resume(throwing: error)
                case .some(.none): continuation.resume()
                case .none: break
                }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward by `duration`, waking sleepers deadline by deadline.
    func advance(by duration: Duration) async {
        await advance(to: now.offset + duration)
    }

    /// Moves time to `target` (from the clock's start), waking sleepers deadline by deadline.
    func advance(to target: Duration) async {
        let target = Instant(offset: target)
        while true {
            let due: [Sleeper] = state.withLock { state in
                guard let soonest = state.sleepers.map(\.deadline).min(), soonest <= target else {
                    if state.now < target { state.now = target }
                    return []
                }
                state.now = Swift.max(state.now, soonest)
                let due = state.sleepers.filter { $0.deadline <= soonest }
                state.sleepers.removeAll { $0.deadline <= soonest }
                return due
            }
            if due.isEmpty { return }
            for sleeper in due { sleeper.continuation.resume() }
            await settle()
        }
    }

    /// Lets woken tasks run for a moment (a best effort; tests wait for what they assert).
    private func settle() async {
        for _ in 0..<20 { await Task.yield() }
    }
}
