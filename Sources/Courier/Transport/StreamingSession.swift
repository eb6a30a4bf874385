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
    }

    private let streams = Mutex<[Int: Stream]>([:])
    /// Where delegate calls run (an OperationQueue does not keep its underlying queue alive).
    private let delegateQueue = DispatchQueue(label: "courier.urlsession.delegate")
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
        // One serial queue over a dispatch queue. FoundationNetworking hands every chunk to the
        // delegate queue without waiting for it; a default OperationQueue fell so far behind
        // libcurl that a 4 GiB gzip bomb was queued whole (4.4 GB resident, 23 s) before the
        // delegate saw byte 16 MiB and cancelled. Over a serial dispatch queue: 39 MB, 0.1 s
        // (HostileBenchmark).
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.underlyingQueue = delegateQueue
        session.withLock { $0 = URLSession(configuration: configuration, delegate: self, delegateQueue: queue) }
    }

    /// Starts `request`; returns the head and the body as it arrives, at most `limit` bytes (a
    /// declared length over it fails before the head is returned; a body growing past it fails
    /// with `ResponseTooLargeError` and cancels the task). Cancelling the calling task before the
    /// head, or ending the body's iteration, cancels the request.
    func start(_ request: URLRequest, limit: Int?) async throws -> (HTTPURLResponse, AsyncThrowingStream<ArraySlice<UInt8>, any Error>) {
        guard let session = session.withLock({ $0 }) else { throw URLError(.cancelled) }
        let task = session.dataTask(with: request)
        let (bytes, continuation) = AsyncThrowingStream<ArraySlice<UInt8>, any Error>.makeStream()
        continuation.onTermination = { _ in task.cancel() }
        let head = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<HTTPURLResponse, any Error>) in
                streams.withLock { $0[task.taskIdentifier] = Stream(head: waiter, bytes: continuation, limit: limit) }
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
        return (head, bytes)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
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
        guard let stream = streams.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
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

    /// Redirects are the client's to follow: the 3xx is the answer.
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
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
        stream.head?.resume(throwing: error)
        stream.bytes.finish(throwing: error)
        task.cancel()
    }
}

