import Courier
import Synchronization

/// The load of a `courier bench` run: `concurrency` workers in one task group, each taking the
/// next call from a shared count (or until the deadline) and sending it through the one client —
/// so at most `concurrency` calls are in flight and no task is made per call.
///
/// With a rate, starts are spaced evenly, `interval` apart: each call's start is claimed as the
/// later of now and the previous start plus `interval`, so a run that fell behind (every worker
/// busy) does not catch up in a burst. A `--duration` run starts no call after its deadline;
/// calls in flight then finish and count. Cancelling the task that runs ``run()`` (Ctrl-C) cuts
/// the calls in flight: they did not end on their own and are not counted.
final class BenchRun: Sendable {
    /// How long a run lasts.
    enum Length: Sendable, Equatable {
        /// Exactly this many calls.
        case calls(Int)
        /// Calls started during this long.
        case duration(Duration)
    }

    /// The run so far, for the progress bar.
    struct Progress: Sendable {
        var requests: Int
        var errors: Int
        var failedStatuses: Int
        var elapsed: Duration
    }

    /// A run that ended: its tally, the calls handed to the client (counted or cut short), and
    /// the time from the first start to the last end.
    struct Outcome: Sendable {
        var tally: BenchTally
        var sent: Int
        var wall: Duration
    }

    private struct State {
        var tally = BenchTally()
        /// Calls claimed by the workers.
        var claimed = 0
        /// The earliest the next call may start (with a rate).
        var nextStart: ContinuousClock.Instant?
        var began = ContinuousClock.now
        var deadline: ContinuousClock.Instant?
    }

    let client: NetworkClient
    let endpoint: AdHocEndpoint
    let length: Length
    let concurrency: Int
    /// Time between two starts (`1 / --rate`); nil: as fast as the workers go.
    let interval: Duration?
    private let state = Mutex(State())
    private let sent = Atomic<Int>(0)

    init(client: NetworkClient, endpoint: AdHocEndpoint, length: Length, concurrency: Int, rate: Double?) {
        self.client = client
        self.endpoint = endpoint
        self.length = length
        self.concurrency = concurrency
        self.interval = rate.map { Duration.nanoseconds(Int64((1e9 / $0).rounded())) }
    }

    /// Sends the calls; returns when the last has ended (or the task was cancelled).
    func run() async -> Outcome {
        let began = ContinuousClock.now
        state.withLock { state in
            state.began = began
            if case .duration(let duration) = length { state.deadline = began + duration }
        }
        let workers = if case .calls(let count) = length { min(concurrency, count) } else { concurrency }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<workers { group.addTask { await self.work() } }
        }
        let wall = began.duration(to: .now)
        return Outcome(tally: state.withLock { $0.tally }, sent: sent.load(ordering: .relaxed), wall: wall)
    }

    /// The run so far.
    func progress() -> Progress {
        state.withLock {
            Progress(
                requests: $0.tally.requests, errors: $0.tally.errorCount, failedStatuses: $0.tally.failedStatuses,
                elapsed: $0.began.duration(to: .now))
        }
    }

    /// One worker: the next call, until there is none.
    private func work() async {
        while let start = claim() {
            if start > .now {
                do { try await Task.sleep(until: start, clock: .continuous) } catch { return }
            }
            if Task.isCancelled { return }
            sent.add(1, ordering: .relaxed)
            let began = ContinuousClock.now
            let outcome: BenchTally.Outcome
            do {
                outcome = .status(try await client.response(endpoint, validatingStatus: false).statusCode)
            } catch {
                if Task.isCancelled { return }  // cut short by Ctrl-C: not an outcome of the call
                outcome = .error(error.family)
            }
            let latency = began.duration(to: .now)
            state.withLock { $0.tally.record(outcome, latency: latency) }
        }
    }

    /// When the next call starts, or nil when the run has no more calls to start.
    private func claim() -> ContinuousClock.Instant? {
        let now = ContinuousClock.now
        return state.withLock { state -> ContinuousClock.Instant? in
            if case .calls(let count) = length, state.claimed >= count { return nil }
            var start = now
            if let interval {
                start = max(state.nextStart ?? now, now)
                state.nextStart = start + interval
            }
            if let deadline = state.deadline, start >= deadline { return nil }
            state.claimed += 1
            return start
        }
    }
}
