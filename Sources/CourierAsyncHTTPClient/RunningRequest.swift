import AsyncHTTPClient
import Synchronization

/// The AsyncHTTPClient task of one request, for cancelling it from another thread — including
/// before it has started (it is then cancelled as soon as it starts).
final class RunningRequest: Sendable {
    private enum State {
        case waiting
        case running(HTTPClient.Task<HTTPClient.Response>)
        case cancelled
        case done
    }

    private let state = Mutex(State.waiting)

    /// Records the started task; cancels it at once if cancellation came first.
    func started(_ task: HTTPClient.Task<HTTPClient.Response>) {
        let cancelNow = state.withLock { state -> Bool in
            switch state {
            case .waiting:
                state = .running(task)
                return false
            case .cancelled:
                state = .done
                return true
            case .running, .done:
                return false
            }
        }
        if cancelNow { task.cancel() }
    }

    /// Cancels the task, now or when it starts.
    func cancel() {
        let task = state.withLock { state -> HTTPClient.Task<HTTPClient.Response>? in
            switch state {
            case .waiting:
                state = .cancelled
                return nil
            case .running(let task):
                state = .done
                return task
            case .cancelled, .done:
                return nil
            }
        }
        task?.cancel()
    }
}
