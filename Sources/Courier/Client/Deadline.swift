import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Runs `operation`, failing with `URLError(.timedOut)` as soon as `deadline` passes.
///
/// The caller gets its answer at the deadline, not when the operation has wound down: the
/// operation runs in a task of its own (with the caller's task-locals) that is cancelled and left
/// to finish — a task group would wait for it, and a transport slow to notice cancellation (URLSession
/// on a loaded machine: 9 s seen) would hold the call past its deadline. Cancelling the caller
/// cancels both and throws `CancellationError`.
func withDeadline<T: Sendable>(
    _ deadline: ContinuousClock.Instant,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let race = DeadlineRace<T>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            race.begin(continuation)
            let work = Task {
                do { race.finish(.success(try await operation())) } catch { race.finish(.failure(error)) }
            }
            let timer = Task {
                try? await Task.sleep(until: deadline, clock: .continuous)
                if !Task.isCancelled { race.finish(.failure(URLError(.timedOut))) }
            }
            race.started(work: work, timer: timer)
        }
    } onCancel: {
        race.finish(.failure(CancellationError()))
    }
}

/// Whichever of the operation, the timer and the caller's cancellation comes first resumes the
/// caller and cancels the other two.
private final class DeadlineRace<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var result: Result<T, any Error>?
        var tasks: [Task<Void, Never>] = []
    }

    private let state = Mutex(State())

    func begin(_ continuation: CheckedContinuation<T, any Error>) {
        let early = state.withLock { state -> Result<T, any Error>? in
            if let result = state.result { return result }  // cancelled before it began
            state.continuation = continuation
            return nil
        }
        if let early { continuation.resume(with: early) }
    }

    func started(work: Task<Void, Never>, timer: Task<Void, Never>) {
        let done = state.withLock { state -> Bool in
            state.tasks = [work, timer]
            return state.result != nil
        }
        if done {
            work.cancel()
            timer.cancel()
        }
    }

    func finish(_ result: Result<T, any Error>) {
        let (continuation, tasks) = state.withLock { state -> (CheckedContinuation<T, any Error>?, [Task<Void, Never>]) in
            guard state.result == nil else { return (nil, []) }
            state.result = result
            defer { state.continuation = nil }
            return (state.continuation, state.tasks)
        }
        continuation?.resume(with: result)
        for task in tasks { task.cancel() }
    }
}
