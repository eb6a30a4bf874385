import Foundation
import OpenAPIRuntime
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Enforces an idle timeout on a streamed body from a transport that does not
/// (`TransportCapabilities.idleTimeout`): a task reads the body and passes its chunks on, while a
/// watchdog beside it fails the body with `URLError(.timedOut)` after the given silence.
/// Costs one more hand-over per chunk than a transport that watches itself.
enum IdleWatchedBody {
    static func watch(_ body: HTTPBody, idleTimeout: Duration) -> HTTPBody {
        let (chunks, continuation) = AsyncThrowingStream<ArraySlice<UInt8>, any Error>.makeStream()
        let reader = Task {
            let activity = Activity()
            do {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for try await chunk in body {
                            activity.touch()
                            continuation.yield(chunk)
                        }
                    }
                    group.addTask {
                        let tick = max(min(idleTimeout / 4, .seconds(1)), .milliseconds(10))
                        while true {
                            try await Task.sleep(for: tick)
                            if activity.silence >= idleTimeout { throw URLError(.timedOut) }
                        }
                    }
                    defer { group.cancelAll() }
                    try await group.next()
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in reader.cancel() }
        return HTTPBody(chunks, length: body.length, iterationBehavior: .single)
    }
}

/// When a body last received a byte.
private final class Activity: Sendable {
    private let last = Mutex(ContinuousClock.now)

    func touch() { last.withLock { $0 = .now } }

    var silence: Duration { ContinuousClock.now - last.withLock { $0 } }
}
