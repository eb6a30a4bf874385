import Foundation
import HTTPTypes
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A URLSession whose delegate hands each task's body over as it arrives, within a byte limit —
/// what ``URLSessionClientTransport`` sends every call through. Delegate-based rather than
/// `bytes(for:)`, which FoundationNetworking on Linux does not have; works the same on Apple
/// platforms. It declines every redirect (the 3xx is the answer; the client follows it).
final class StreamingSession: NSObject, URLSessionDataDelegate, Sendable {
    private struct Stream {
        var head: CheckedContinuation<HTTPURLResponse, any Error>?
        let bytes: AsyncThrowingStream<ArraySlice<UInt8>, any Error>.Continuation
        /// The most body bytes accepted (nil: no limit).
        let limit: Int?
        var received = 0
        /// The file the request body was sent from, when it must be removed once the task ends.
        let upload: RequestBodyFile?
    }

    private let streams = Mutex<[Int: Stream]>([:])
    /// Each running task's `CancelGate`, until its completion reaches the delegate.
    private let gates = Mutex<[Int: CancelGate]>([:])
    // URLSession keeps its delegate alive; this object lives as long as its transport.
    private let session = Mutex<URLSession?>(nil)

    /// A streaming session with `configuration`'s settings, without cookies or a cache of its own.
    init(configuration: URLSessionConfiguration) {
        super.init()
        // A copy: the caller's configuration object stays as it was.
        let configuration = configuration.copy() as? URLSessionConfiguration ?? .ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        // One serial queue over a dispatch queue, bounded on Linux (`BoundedDelegateQueue`).
        // FoundationNetworking hands every chunk libcurl writes to the delegate queue without
        // waiting and cannot pause libcurl: a default OperationQueue fell so far behind that a
        // 4 GiB gzip bomb was queued whole (4.4 GB resident) before the delegate saw byte 16 MiB;
        // an unbounded serial queue still held 31–325 MB of an endless body (HostileBenchmark).
        let delegateQueue = DispatchQueue(label: "courier.urlsession.delegate")
        let queue = makeDelegateQueue(over: delegateQueue)
        queue.maxConcurrentOperationCount = 1
        queue.underlyingQueue = delegateQueue
        session.withLock { $0 = URLSession(configuration: configuration, delegate: self, delegateQueue: queue) }
    }

    /// Starts `request`; returns the head and the body as it arrives, at most `limit` bytes (a
    /// declared length over it fails before the head is returned; a body growing past it fails
    /// with `ResponseTooLargeError` and cancels the task). Cancelling the calling task before the
    /// head, or ending the body's iteration, cancels the request.
    func start(
        _ request: URLRequest, uploading upload: RequestBodyFile? = nil, limit: Int?
    ) async throws -> (HTTPURLResponse, AsyncThrowingStream<ArraySlice<UInt8>, any Error>) {
        guard let session = session.withLock({ $0 }) else {
            upload?.remove()
            throw URLError(.cancelled)
        }
        let task: URLSessionTask =
            if let upload { session.uploadTask(with: request, fromFile: URL(fileURLWithPath: upload.path)) } else { session.dataTask(with: request) }
        let (bytes, continuation) = AsyncThrowingStream<ArraySlice<UInt8>, any Error>.makeStream()
        let gate = CancelGate(task)
        gates.withLock { $0[task.taskIdentifier] = gate }
        continuation.onTermination = { _ in gate.cancel() }
        let head = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<HTTPURLResponse, any Error>) in
                streams.withLock { $0[task.taskIdentifier] = Stream(head: waiter, bytes: continuation, limit: limit, upload: upload) }
                task.resume()
            }
        } onCancel: {
            gate.cancel()
        }
        return (head, bytes)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        guard let http = response as? HTTPURLResponse else {
            fail(dataTask, URLError(.badServerResponse))
            completionHandler(.cancel)
            return
        }
        let stream = streams.withLock { $0[dataTask.taskIdentifier] }
        if let limit = stream?.limit, http.expectedContentLength > Int64(limit) {
            fail(dataTask, ResponseTooLargeError(limit: limit))
            completionHandler(.cancel)
            return
        }
        resumeHead(of: dataTask, with: http)
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let (continuation, over) = streams.withLock { streams -> (AsyncThrowingStream<ArraySlice<UInt8>, any Error>.Continuation?, Int?) in
            guard var stream = streams[dataTask.taskIdentifier] else { return (nil, nil) }
            stream.received += data.count
            streams[dataTask.taskIdentifier] = stream
            if let limit = stream.limit, stream.received > limit { return (nil, limit) }
            return (stream.bytes, nil)
        }
        if let over {
            fail(dataTask, ResponseTooLargeError(limit: over))
            return
        }
        continuation?.yield(ArraySlice(data))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        gates.withLock { $0.removeValue(forKey: task.taskIdentifier) }?.completed()
        guard let stream = streams.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        stream.upload?.remove()
        let failure: (any Error)? = error.map { error in
            // libcurl's "partial file" arrives as an unknown error; it means the connection dropped.
            if let urlError = error as? URLError, urlError.code == .unknown { return URLError(.networkConnectionLost) }
            return error
        }
        if let waiter = stream.head {
            // A declined redirect ends the task with its 3xx as the response and no head delivered.
            if failure == nil, let http = task.response as? HTTPURLResponse {
                waiter.resume(returning: http)
            } else {
                waiter.resume(throwing: failure ?? URLError(.badServerResponse))
            }
        }
        stream.bytes.finish(throwing: failure)
    }

    /// The request body's bytes as they are sent from a file, for an upload's progress.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        guard let progress = streams.withLock({ $0[task.taskIdentifier]?.upload?.progress }) else { return }
        if totalBytesSent == bytesSent { progress.begin(done: 0, expected: totalBytesExpectedToSend >= 0 ? totalBytesExpectedToSend : nil) }
        progress.add(Int(clamping: bytesSent))
    }

    /// Redirects are the client's to follow: the 3xx is the answer.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    private func resumeHead(of task: URLSessionTask, with http: HTTPURLResponse) {
        let waiter = streams.withLock { streams -> CheckedContinuation<HTTPURLResponse, any Error>? in
            defer { streams[task.taskIdentifier]?.head = nil }
            return streams[task.taskIdentifier]?.head
        }
        waiter?.resume(returning: http)
    }

    /// Ends `task` with `error`: its head waiter or its body, whichever is waiting, then cancels it.
    private func fail(_ task: URLSessionTask, _ error: any Error) {
        guard let stream = streams.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        stream.upload?.remove()
        stream.head?.resume(throwing: error)
        stream.bytes.finish(throwing: error)
        gates.withLock { $0[task.taskIdentifier] }?.cancel()
    }
}

/// Cancels a task from a queue of its own, never after its completion reached the delegate.
///
/// FoundationNetworking's `cancel()` waits for the session's work queue (`workQueue.sync`), where
/// libcurl runs and which libcurl keeps busy while its socket stays readable: called on the
/// delegate queue it stopped the delegate while libcurl kept queueing chunks to it (HostileBenchmark:
/// 325–572 MB), and on Linux, where the delegate queue is bounded, the two would wait for each
/// other. Off the delegate queue it can race the task's completion: cancelling a task whose
/// completion the delegate has seen makes FoundationNetworking look up a task its session has
/// already forgotten (a crash in `URLSession.behaviour(for:)`). The gate runs `cancel()` and the
/// delegate's completion one at a time, and skips the cancel once the task has completed.
final class CancelGate: Sendable {
    private let task: URLSessionTask
    private let done = Mutex(false)

    init(_ task: URLSessionTask) {
        self.task = task
    }

    func cancel() {
        DispatchQueue.global().async {
            self.done.withLock { done in
                if !done { self.task.cancel() }
            }
        }
    }

    /// The delegate has seen the task's completion.
    func completed() {
        done.withLock { $0 = true }
    }
}

#if canImport(FoundationNetworking)
/// The delegate queue of a streaming session on Linux: a serial dispatch queue that holds at most
/// `slots` delegate calls. FoundationNetworking queues each chunk libcurl writes as a delegate
/// call and cannot pause libcurl (`_NativeProtocol.didReceiveResponse`: "We're currently unable to
/// pause the transfer / the easy handle"); here the call that would queue one more than `slots`
/// waits on libcurl's thread until the delegate has caught up — libcurl reads no more, TCP holds
/// the rest. 64 slots of at most 16 KiB (CURL_MAX_WRITE_SIZE) each: 1 MiB.
///
/// A wait is at most a second: a delegate call that itself waited for the session's work queue
/// (FoundationNetworking's own authentication handling calls `task.suspend()`) must not wait
/// for ever.
final class BoundedDelegateQueue: OperationQueue, @unchecked Sendable {  // unchecked: OperationQueue is; its own state is let
    private let queue: DispatchQueue
    private let slots: DispatchSemaphore
    private static let key = DispatchSpecificKey<Bool>()

    init(queue: DispatchQueue, slots: Int) {
        self.queue = queue
        self.slots = DispatchSemaphore(value: slots)
        queue.setSpecific(key: Self.key, value: true)
        super.init()
    }

    override func addOperation(_ block: @escaping @Sendable () -> Void) {
        // A call made on the delegate queue itself never waits for it.
        let acquired = DispatchQueue.getSpecific(key: Self.key) == nil && slots.wait(timeout: .now() + 1) == .success
        queue.async {
            block()
            if acquired { self.slots.signal() }
        }
    }
}

/// The delegate queue of a streaming session: bounded, as above.
func makeDelegateQueue(over queue: DispatchQueue) -> OperationQueue {
    BoundedDelegateQueue(queue: queue, slots: 64)
}
#else
/// The delegate queue of a streaming session on Apple platforms, whose URLSession does not run
/// ahead of its delegate: a plain one (made serial by the caller).
func makeDelegateQueue(over queue: DispatchQueue) -> OperationQueue {
    OperationQueue()
}
#endif
