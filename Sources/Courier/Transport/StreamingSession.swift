import Foundation
import HTTPTypes
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A URLSession whose delegate hands each task's body over as it arrives — what
/// ``URLSessionClientTransport`` uses for streamed answers (server-sent events). Delegate-based
/// rather than `bytes(for:)`, which FoundationNetworking on Linux does not have; works the same
/// on Apple platforms.
final class StreamingSession: NSObject, URLSessionDataDelegate, Sendable {
    private struct Stream {
        var head: CheckedContinuation<HTTPURLResponse, any Error>?
        let bytes: AsyncThrowingStream<ArraySlice<UInt8>, any Error>.Continuation
        var redirects = 0
    }

    private let streams = Mutex<[Int: Stream]>([:])
    private let maxRedirects: Int
    // URLSession keeps its delegate alive; this object lives as long as its transport.
    private let session = Mutex<URLSession?>(nil)

    /// A streaming session with `configuration`'s settings.
    init(configuration: URLSessionConfiguration, maxRedirects: Int) {
        self.maxRedirects = maxRedirects
        super.init()
        session.withLock { $0 = URLSession(configuration: configuration, delegate: self, delegateQueue: nil) }
    }

    /// Starts `request`; returns the head and the body as it arrives. Cancelling the calling task
    /// before the head, or ending the body's iteration, cancels the request.
    func start(_ request: URLRequest) async throws -> (HTTPURLResponse, AsyncThrowingStream<ArraySlice<UInt8>, any Error>) {
        guard let session = session.withLock({ $0 }) else { throw URLError(.cancelled) }
        let task = session.dataTask(with: request)
        let (bytes, continuation) = AsyncThrowingStream<ArraySlice<UInt8>, any Error>.makeStream()
        continuation.onTermination = { _ in task.cancel() }
        let head = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<HTTPURLResponse, any Error>) in
                streams.withLock { $0[task.taskIdentifier] = Stream(head: waiter, bytes: continuation) }
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
        return (head, bytes)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        let waiter = streams.withLock { streams -> CheckedContinuation<HTTPURLResponse, any Error>? in
            defer { streams[dataTask.taskIdentifier]?.head = nil }
            return streams[dataTask.taskIdentifier]?.head
        }
        guard let http = response as? HTTPURLResponse else {
            waiter?.resume(throwing: URLError(.badServerResponse))
            completionHandler(.cancel)
            return
        }
        waiter?.resume(returning: http)
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let continuation = streams.withLock { $0[dataTask.taskIdentifier]?.bytes }
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
            waiter.resume(throwing: failure ?? URLError(.badServerResponse))
        }
        stream.bytes.finish(throwing: failure)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        let allowed = streams.withLock { streams -> Bool in
            streams[task.taskIdentifier]?.redirects += 1
            return (streams[task.taskIdentifier]?.redirects ?? 0) <= maxRedirects
        }
        if !allowed {
            task.cancel()
            completionHandler(nil)
            return
        }
        completionHandler(request)
    }
}
