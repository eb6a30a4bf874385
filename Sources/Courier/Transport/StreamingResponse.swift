import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An AsyncHTTPClient delegate that hands a response body over as it arrives: body parts go
/// straight from the event loop into an `AsyncThrowingStream` the caller reads — one hand-over
/// per network read, as with AsyncHTTPClient's own async API — while the head, the time of the
/// last byte and the task stay reachable, so a watchdog can enforce the head deadline and the
/// idle timeout by failing the task (the async API offers no handle for either).
final class StreamingResponse: HTTPClientResponseDelegate, Sendable {
    typealias Response = Void

    private enum Head {
        case waiting(CheckedContinuation<HTTPResponseHead, any Error>?)
        case received
    }

    private struct State {
        var head = Head.waiting(nil)
        var lastActivity = ContinuousClock.now
    }

    private let state = Mutex(State())
    let bytes: AsyncThrowingStream<ArraySlice<UInt8>, any Error>
    private let continuation: AsyncThrowingStream<ArraySlice<UInt8>, any Error>.Continuation

    init() {
        (bytes, continuation) = AsyncThrowingStream.makeStream()
    }

    /// Registers who waits for the head (before the request starts).
    func awaitHead(_ waiter: CheckedContinuation<HTTPResponseHead, any Error>) {
        state.withLock { $0.head = .waiting(waiter) }
    }

    /// Called when the reader stops reading (finished, cancelled or dropped).
    func onTermination(_ handler: @escaping @Sendable () -> Void) {
        continuation.onTermination = { _ in handler() }
    }

    /// Whether the head has arrived, and how long since the last byte (or the head).
    var progress: (headReceived: Bool, silence: Duration) {
        state.withLock { state in
            if case .received = state.head { return (true, ContinuousClock.now - state.lastActivity) }
            return (false, .zero)
        }
    }

    func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        let waiter = state.withLock { state -> CheckedContinuation<HTTPResponseHead, any Error>? in
            guard case .waiting(let waiter) = state.head else { return nil }
            state.head = .received
            state.lastActivity = .now
            return waiter
        }
        waiter?.resume(returning: head)
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        state.withLock { $0.lastActivity = .now }
        continuation.yield(ArraySlice(buffer.readableBytesView))
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveError(task: HTTPClient.Task<Void>, _ error: any Error) {
        let waiter = state.withLock { state -> CheckedContinuation<HTTPResponseHead, any Error>? in
            guard case .waiting(let waiter) = state.head else { return nil }
            state.head = .received
            return waiter
        }
        if let waiter {
            waiter.resume(throwing: error)
        }
        continuation.finish(throwing: error)
    }

    func didFinishRequest(task: HTTPClient.Task<Void>) throws {
        continuation.finish()
    }
}
