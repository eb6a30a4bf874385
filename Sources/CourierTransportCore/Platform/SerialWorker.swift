import Foundation
import Synchronization

/// Jobs run one at a time, in the order given, on a thread of the worker's own — never on the
/// cooperative pool, and without anyone waiting for them: for blocking work (file writes, system
/// calls that may sleep) that a task hands off and need not see finish.
///
/// The thread starts when a job arrives and ends when none is left, so an idle worker holds no
/// thread. A job holds what it captures until it has run. ``idle()`` lets async code wait for the
/// jobs handed over so far without blocking a thread: it suspends until the worker reaches a job
/// that resumes it.
package final class SerialWorker: Sendable {
    private struct Queue {
        /// Jobs in order; one that has run is nil (it no longer holds what it captured).
        var jobs: [(@Sendable () -> Void)?] = []
        /// The next job to run in `jobs`.
        var next = 0
        /// Whether a thread is running the jobs (at most one is).
        var running = false
    }

    private let queue = Mutex(Queue())
    private let name: String

    /// A worker whose thread is called `name` (as `ps -L` and debuggers show it).
    package init(name: String) {
        self.name = name
    }

    /// Runs `job` after every job handed over before it.
    package func submit(_ job: @escaping @Sendable () -> Void) {
        let start = queue.withLock { queue -> Bool in
            queue.jobs.append(job)
            guard !queue.running else { return false }
            queue.running = true
            return true
        }
        guard start else { return }
        let thread = Thread { [self] in drain() }
        thread.name = name
        thread.start()
    }

    /// Returns once every job handed over before this call has run.
    package func idle() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in submit { done.resume() } }
    }

    /// Runs jobs until none is left (on the worker's thread).
    private func drain() {
        while let job = takeNext() { job() }
    }

    private func takeNext() -> (@Sendable () -> Void)? {
        queue.withLock { queue in
            guard queue.next < queue.jobs.count else {
                queue.jobs.removeAll(keepingCapacity: true)
                queue.next = 0
                queue.running = false
                return nil
            }
            defer { queue.next += 1 }
            return queue.jobs[queue.next].take()
        }
    }
}
