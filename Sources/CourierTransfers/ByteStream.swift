public import Courier
import CourierTransportCore
import Foundation
import OpenAPIRuntime

/// A response body as it arrives, chunk by chunk: an `AsyncSequence` whose only error is
/// `NetworkError`. Each iteration sends the request again.
///
/// The call takes the client's one path (middlewares, redirects, the header limits); an error
/// status ends the stream with the endpoint's status mapping's error before any chunk. The body
/// has no total limit — it is not held — and ``ByteStreamOptions/idleTimeout`` bounds each
/// silence. Cancelling the consuming task, or dropping the iterator, cancels the request and
/// closes the connection.
public struct ByteStream: AsyncSequence, Sendable {
    public typealias Element = ArraySlice<UInt8>
    public typealias Failure = NetworkError

    let client: NetworkClient
    /// The call, or why it could not be built (the first `next()` throws it).
    let call: Result<NetworkClient.Call, NetworkError>
    let options: ByteStreamOptions

    public func makeAsyncIterator() -> Iterator {
        Iterator(client: client, call: call, options: options)
    }

    /// Opens the request on the first `next()`, then hands over each chunk as the transport reads it.
    public struct Iterator: AsyncIteratorProtocol {
        let client: NetworkClient
        let call: Result<NetworkClient.Call, NetworkError>
        let options: ByteStreamOptions
        var body: HTTPBody.Iterator?
        var finished = false

        public mutating func next() async throws(NetworkError) -> ArraySlice<UInt8>? {
            try await next(isolation: nil)
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async throws(NetworkError) -> ArraySlice<UInt8>? {
            if finished { return nil }
            do {
                if body == nil {
                    let (_, opened) = try await client.openStream(try call.get(), idleTimeout: options.idleTimeout)
                    guard let opened else {
                        finished = true
                        return nil
                    }
                    body = opened.makeAsyncIterator()
                }
                guard let chunk = try await body?.next(isolation: actor) else {
                    finished = true
                    body = nil
                    // A transport's stream ends quietly when the reading task is cancelled.
                    if Task.isCancelled { throw NetworkError.taskCancelled }
                    return nil
                }
                return chunk
            } catch {
                finished = true
                body = nil
                if Task.isCancelled { throw .taskCancelled }
                throw NetworkError(error)
            }
        }
    }
}
