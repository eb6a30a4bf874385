public import Courier
import CourierTransportCore
import Foundation
import HTTPTypes
import Logging
import OpenAPIRuntime

/// The server-sent events of one endpoint, read as they arrive: an `AsyncSequence` whose only
/// error is ``NetworkError``. Each iteration opens its own connection.
///
/// Events are parsed in the consuming task straight from the transport's body, one network read
/// at a time (with Courier's AsyncHTTPClient transport, one hand-over per read, as with raw
/// AsyncHTTPClient). Cancelling the consuming task, or dropping the iterator, cancels the request
/// and closes the connection; the consumer then sees ``NetworkError/taskCancelled`` (or simply
/// the end, when it stopped iterating).
public struct ServerEventStream: AsyncSequence, Sendable {
    public typealias Element = ServerEvent
    public typealias Failure = NetworkError

    let client: NetworkClient
    /// The call, or why it could not be built (the first `next()` throws it).
    let call: Result<NetworkClient.Call, NetworkError>
    let options: EventStreamOptions

    public func makeAsyncIterator() -> Iterator {
        Iterator(client: client, call: call, options: options, parser: EventStreamParser(limit: client.configuration.maxResponseBytes))
    }

    /// Reads events one at a time, reconnecting when the options say so.
    public struct Iterator: AsyncIteratorProtocol {
        let client: NetworkClient
        let call: Result<NetworkClient.Call, NetworkError>
        let options: EventStreamOptions
        var parser: EventStreamParser
        var body: HTTPBody.Iterator?
        var pending: [ServerEvent] = []
        var index = 0
        /// Reconnects in a row that delivered nothing.
        var failures = 0
        var finished = false

        public mutating func next() async throws(NetworkError) -> ServerEvent? {
            try await next(isolation: nil)
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async throws(NetworkError) -> ServerEvent? {
            while true {
                if index < pending.count {
                    defer { index += 1 }
                    return pending[index]
                }
                if finished { return nil }
                do {
                    if body == nil {
                        let resume = parser.lastEventID
                        guard let opened = try await Self.connect(client, call, resume: resume, idleTimeout: options.idleTimeout) else {
                            finished = true
                            return nil
                        }
                        body = opened.makeAsyncIterator()
                    }
                    guard let chunk = try await body?.next(isolation: actor) else {
                        finished = true
                        // A transport's stream ends quietly when the reading task is cancelled.
                        if Task.isCancelled { throw NetworkError.taskCancelled }
                        return nil
                    }
                    pending = try parser.feed(chunk)
                    index = 0
                    if !pending.isEmpty { failures = 0 }
                } catch {
                    let wait = try reconnectDelay(after: NetworkError(error))
                    do {
                        try await Task.sleep(for: wait)
                    } catch {
                        finished = true
                        throw .taskCancelled
                    }
                }
            }
        }

        /// Opens the stream (with `Last-Event-ID` after the first connection); nil when the
        /// server answered 204, its "stop".
        private static func connect(
            _ client: NetworkClient, _ call: Result<NetworkClient.Call, NetworkError>, resume lastEventID: String, idleTimeout: Duration?
        ) async throws(NetworkError) -> HTTPBody? {
            var call = try call.get()
            if !lastEventID.isEmpty { call.built.request.headerFields[Self.lastEventIDField] = lastEventID }
            if call.built.request.headerFields[.accept] == nil { call.built.request.headerFields[.accept] = "text/event-stream" }
            let (head, body) = try await client.openStream(call, idleTimeout: idleTimeout)
            guard head.status.code != 204, let body else { return nil }
            if let type = head.headerFields[.contentType], !type.lowercased().hasPrefix("text/event-stream") {
                throw .invalidResponse
            }
            return body
        }

        /// After a failure: how long to wait before the loop reconnects, when the options allow
        /// it; otherwise the stream ends with `error`.
        private mutating func reconnectDelay(after error: NetworkError) throws(NetworkError) -> Duration {
            body = nil
            parser.discardPending()
            guard !Task.isCancelled, error != .taskCancelled else {
                finished = true
                throw .taskCancelled
            }
            guard let reconnect = options.reconnect, case .networkError = error, failures < reconnect.maxAttempts,
                case .success(let call) = call,
                reconnect.replaysNonIdempotent || call.traits.isIdempotent(call.built.request.method)
            else {
                finished = true
                throw error
            }
            failures += 1
            let wait = reconnect.wait(failures: failures, serverRetry: parser.reconnectionTime)
            client.configuration.logger.debug(
                "event stream reconnecting",
                metadata: [
                    "operation": "\(call.operationID)", "reason": "\(error.caseName)", "delayMs": "\(wait.milliseconds)",
                ])
            return wait
        }

        static let lastEventIDField = HTTPField.Name("Last-Event-ID")!
    }
}

/// Events whose `data` is decoded into `Value` (see ``NetworkClient/events(_:as:decoding:options:)``).
public struct DecodedServerEventStream<Value: Decodable & Sendable>: AsyncSequence, Sendable {
    public typealias Element = DecodedServerEvent<Value>
    public typealias Failure = NetworkError

    let events: ServerEventStream
    let decoding: any ResponseDecoding
    let decoder: JSONDecoder

    public func makeAsyncIterator() -> Iterator {
        Iterator(events: events.makeAsyncIterator(), decoding: decoding, decoder: decoder)
    }

    /// Reads and decodes events one at a time; a `data` that does not decode ends the stream
    /// with ``NetworkError/decodingError(_:)``.
    public struct Iterator: AsyncIteratorProtocol {
        var events: ServerEventStream.Iterator
        let decoding: any ResponseDecoding
        let decoder: JSONDecoder

        public mutating func next() async throws(NetworkError) -> DecodedServerEvent<Value>? {
            try await next(isolation: nil)
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async throws(NetworkError) -> DecodedServerEvent<Value>? {
            guard let event = try await events.next(isolation: actor) else { return nil }
            let body = Data(event.data.utf8)
            do {
                return DecodedServerEvent(raw: event, value: try decoding.decode(Value.self, from: body, using: decoder))
            } catch .decodingError(let error) {
                throw .decodingError(DecodingDiagnostics.attach(to: error, body: body))
            }
        }
    }
}
