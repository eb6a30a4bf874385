import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// AsyncHTTPClient's `ResponseAccumulator` plus a whole-call deadline that covers the body.
///
/// AHC's own deadline ends when the response head arrives. This delegate arms a timer on the
/// request's event loop when the request head has been written (no cross-thread wake-up on the
/// hot path) and fails the task with `URLError(.timedOut)` if the body is not complete by then.
final class DeadlineAccumulator: HTTPClientResponseDelegate, @unchecked Sendable {  // `timer` is only touched on the task's event loop, where AHC calls every delegate method.
    typealias Response = HTTPClient.Response

    private let accumulator: ResponseAccumulator
    private let deadline: NIODeadline
    private var timer: Scheduled<Void>?

    init(request: HTTPClient.Request, maxBodySize: Int, deadline: NIODeadline) {
        self.accumulator = ResponseAccumulator(request: request, maxBodySize: maxBodySize)
        self.deadline = deadline
    }

    func didSendRequestHead(task: HTTPClient.Task<Response>, _ head: HTTPRequestHead) {
        guard timer == nil else { return }
        timer = task.eventLoop.scheduleTask(deadline: deadline) {
            task.fail(reason: URLError(.timedOut))
        }
    }

    func didReceiveHead(task: HTTPClient.Task<Response>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        accumulator.didReceiveHead(task: task, head)
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Response>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        accumulator.didReceiveBodyPart(task: task, buffer)
    }

    func didReceiveError(task: HTTPClient.Task<Response>, _ error: any Error) {
        timer?.cancel()
        accumulator.didReceiveError(task: task, error)
    }

    func didFinishRequest(task: HTTPClient.Task<Response>) throws -> Response {
        timer?.cancel()
        return try accumulator.didFinishRequest(task: task)
    }
}
