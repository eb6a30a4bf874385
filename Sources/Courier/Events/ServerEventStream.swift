import Foundation
import HTTPTypes
import OpenAPIRuntime
import Synchronization

/// The server-sent events of one endpoint, read as they arrive: an `AsyncSequence` whose only
/// error is ``NetworkError``. Each iteration opens its own connection.
///
/// The connection is read by a task of its own, which hands events over in batches (one per
/// network read), so a fast stream costs one hand-over per chunk rather than per event.
/// Cancelling the consuming task, or dropping the iterator, cancels that task and closes the
/// connection; the consumer then sees ``NetworkError/taskCancelled`` (or simply the end, when it
/// stopped iterating). Events the consumer has not taken yet are buffered.
public struct ServerEventStream: AsyncSequence, Sendable {
    public typealias Element = ServerEvent
    public typealias Failure = NetworkError

    let client: NetworkClient
    /// The call, or why it could not be built (the first `next()` throws it).
    let call: Result<NetworkClient.Call, NetworkError>
    let options: EventStreamOptions

    public func makeAsyncIterator() -> Iterator {
        let (batches, continuation) = AsyncThrowingStream<[ServerEvent], any Error>.makeStream()
        let call: NetworkClient.Call
        switch self.call {
        case .success(let built): call = built
        case .failure(let error):
            continuation.finish(throwing: error)
            return Iterator(batches: batches.makeAsyncIterator())
        }
        let reader = EventStreamReader(client: client, call: call, options: options, continuation: continuation)
        let task = Task { await reader.run() }
        continuation.onTermination = { _ in task.cancel() }
        return Iterator(batches: batches.makeAsyncIterator())
    }

    /// Reads events one at a time.
    public struct Iterator: AsyncIteratorProtocol {
        var batches: AsyncThrowingStream<[ServerEvent], any Error>.AsyncIterator
        var pending: [ServerEvent] = []
        var index = 0

        public mutating func next() async throws(NetworkError) -> ServerEvent? {
            try await next(isolation: nil)
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async throws(NetworkError) -> ServerEvent? {
            while index == pending.count {
                let batch: [ServerEvent]?
                do {
                    batch = try await batches.next(isolation: actor)
                } catch {
                    throw NetworkError(error)
                }
                guard let batch else {
                    if Task.isCancelled { throw .taskCancelled }
                    return nil
                }
                pending = batch
                index = 0
            }
            defer { index += 1 }
            return pending[index]
        }
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

/// The task behind one iteration of a ``ServerEventStream``: connects, reads, parses, reconnects.
struct EventStreamReader: Sendable {
    let client: NetworkClient
    let call: NetworkClient.Call
    let options: EventStreamOptions
    let continuation: AsyncThrowingStream<[ServerEvent], any Error>.Continuation

    func run() async {
        let parser = SharedParser(limit: client.configuration.maxResponseBytes)
        var failures = 0
        while true {
            var call = self.call
            let lastEventID = parser.lastEventID
            if !lastEventID.isEmpty { call.built.request.headerFields[Self.lastEventIDField] = lastEventID }
            if call.built.request.headerFields[.accept] == nil { call.built.request.headerFields[.accept] = "text/event-stream" }
            var delivered = false
            do {
                let (head, body) = try await client.openStream(call)
                // 204 is the server's "stop reconnecting"; no body, nothing more to read.
                guard head.status.code != 204, let body else { return continuation.finish() }
                if let type = head.headerFields[.contentType], !type.lowercased().hasPrefix("text/event-stream") {
                    return continuation.finish(throwing: NetworkError.invalidResponse)
                }
                try await read(body, into: parser, delivered: &delivered)
                return continuation.finish()
            } catch {
                let mapped = NetworkError(error)
                parser.discardPending()
                if delivered { failures = 0 }
                guard !Task.isCancelled, mapped != .taskCancelled else { return continuation.finish() }
                guard let reconnect = options.reconnect, case .networkError = mapped, failures < reconnect.maxAttempts else {
                    return continuation.finish(throwing: mapped)
                }
                failures += 1
                let wait = parser.reconnectionTime.map { Duration.milliseconds($0) } ?? reconnect.delay
                client.configuration.logger.debug("event stream reconnecting", metadata: [
                    "operation": "\(call.operationID)", "reason": "\(mapped.caseName)", "delayMs": "\(wait.milliseconds)",
                ])
                do { try await Task.sleep(for: wait) } catch { return continuation.finish() }
            }
        }
    }

    /// Feeds `body` to `parser` and yields the events of each chunk, failing with `.timedOut`
    /// when no byte arrives within the idle timeout.
    private func read(_ body: HTTPBody, into parser: SharedParser, delivered: inout Bool) async throws {
        let continuation = self.continuation
        guard let idle = options.idleTimeout else {
            delivered = try await Self.pump(body, parser, continuation, activity: nil)
            return
        }
        let activity = Activity()
        delivered = try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask { try await Self.pump(body, parser, continuation, activity: activity) }
            group.addTask {
                let tick = min(idle / 4, .seconds(1))
                while true {
                    try await Task.sleep(for: tick)
                    if activity.silence >= idle { throw URLError(.timedOut) }
                }
            }
            defer { group.cancelAll() }
            return try await group.next() ?? false
        }
    }

    /// Reads every chunk; returns whether any event was delivered.
    private static func pump(
        _ body: HTTPBody, _ parser: SharedParser,
        _ continuation: AsyncThrowingStream<[ServerEvent], any Error>.Continuation, activity: Activity?
    ) async throws -> Bool {
        var delivered = false
        for try await chunk in body {
            activity?.touch()
            let events = try parser.feed(chunk)
            if !events.isEmpty {
                delivered = true
                continuation.yield(events)
            }
        }
        return delivered
    }

    static let lastEventIDField = HTTPField.Name("Last-Event-ID")!
}

/// The parser, shared between the reading task and the reconnect loop.
private final class SharedParser: Sendable {
    private let parser: Mutex<EventStreamParser>

    init(limit: Int) { parser = Mutex(EventStreamParser(limit: limit)) }

    var lastEventID: String { parser.withLock { $0.lastEventID } }
    var reconnectionTime: Int? { parser.withLock { $0.reconnectionTime } }
    func feed(_ chunk: ArraySlice<UInt8>) throws(NetworkError) -> [ServerEvent] {
        try parser.withLock { parser throws(NetworkError) in try parser.feed(chunk) }
    }
    func discardPending() { parser.withLock { $0.discardPending() } }
}

/// When the stream last received a byte.
private final class Activity: Sendable {
    private let last = Atomic<Int64>(Activity.now())

    func touch() { last.store(Self.now(), ordering: .relaxed) }

    var silence: Duration { .nanoseconds(Self.now() - last.load(ordering: .relaxed)) }

    private static func now() -> Int64 {
        let elapsed = ContinuousClock.now - Self.origin
        return elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000
    }

    private static let origin = ContinuousClock.now
}

extension Duration {
    /// Whole milliseconds.
    var milliseconds: Int64 { components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000 }
}
