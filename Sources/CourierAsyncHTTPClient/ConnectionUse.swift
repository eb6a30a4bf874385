import AsyncHTTPClient
import CourierTransportCore
import NIOCore
import NIOHTTP1
import NIOHTTP2
import Synchronization

/// Tells a call's timeline whether each of its exchanges went out on a new connection or on one
/// kept from an earlier request (`CallStep.Kind.connection`), through AsyncHTTPClient's
/// connection initializers — it has no other hook: its requests never learn their connection.
///
/// Every connection a transport's clients open gets a handler, added by the connection
/// initializers after the TLS handshake and before the first request: an HTTP/1.1 connection's
/// in front of the request encoder, an HTTP/2 stream's in front of the HTTP/2 codec (the stream's
/// handler counts the requests of the connection it belongs to). Nothing is added to a request:
/// the handler tells exchanges apart by what it sees, the head it writes. An exchange of a
/// recorded call registers its method, URL and header fields with its transport's
/// `ConnectionUse`; the handler that writes a head takes the oldest registered exchange whose
/// method matches, whose URL ends with the head's target, and whose fields all appear in the head
/// (AsyncHTTPClient adds fields of its own; it removes none), and records on it the connection's
/// number and whether the connection served a request before. Two requests alike in all of these,
/// in flight at once, are indistinguishable on the wire too: each is told a connection that one
/// of them used. A head no registered exchange matches (a request AsyncHTTPClient rewrote) leaves
/// its exchange's connection unknown — never a wrong guess from an unrelated request. A request
/// of a call nobody records registers nothing and costs the handler a counter and an atomic load.
final class ConnectionUse: Sendable {
    /// A recorded exchange waiting for its head to be written.
    private struct Exchange {
        let id: UInt64
        let method: String
        let url: String
        /// The exchange's fields as handed to AsyncHTTPClient (kept as they are: no copy made).
        let fields: HTTPHeaders
        let recorder: CallRecorder
        /// Its number in the call's timeline.
        let attempt: Int

        func matches(_ head: HTTPRequestHead) -> Bool {
            guard head.method.rawValue == method, url.hasSuffix(head.uri) else { return false }
            // A walk over the head's fields per field: `headers[name]` made an array of a name's
            // values each time (1,000 instructions per exchange that carries a `traceparent`).
            return fields.allSatisfy { field in
                head.headers.contains { $0.value == field.value && Self.sameName($0.name, field.name) }
            }
        }

        /// Whether two field names are the same, ASCII letters compared without case.
        static func sameName(_ a: String, _ b: String) -> Bool {
            // Spelled alike, as a field AsyncHTTPClient was handed comes back.
            if a == b { return true }
            return a.utf8.count == b.utf8.count
                && a.utf8.elementsEqual(b.utf8) { x, y in
                    x == y || (x ^ y == 0x20 && (x | 0x20) >= UInt8(ascii: "a") && (x | 0x20) <= UInt8(ascii: "z"))
                }
        }
    }

    private let waiting = Mutex<[Exchange]>([])
    /// How many are waiting: a handler reads this before looking.
    private let waitingCount = Atomic<Int>(0)
    private let nextExchange = Atomic<UInt64>(0)
    private let nextConnection = Atomic<UInt64>(0)

    /// Registers an exchange of the call `recorder` records; returns its number, for ``finish(_:)``.
    func register(_ recorder: CallRecorder, attempt: Int, method: String, url: String, headers: HTTPHeaders) -> UInt64 {
        let id = nextExchange.add(1, ordering: .relaxed).newValue
        let exchange = Exchange(id: id, method: method, url: url, fields: headers, recorder: recorder, attempt: attempt)
        waiting.withLock { $0.append(exchange) }
        waitingCount.add(1, ordering: .releasing)
        return id
    }

    /// Forgets exchange `id` (its head was written, or it failed before a connection).
    func finish(_ id: UInt64) {
        let removed = waiting.withLock { waiting in
            guard let index = waiting.firstIndex(where: { $0.id == id }) else { return false }
            waiting.remove(at: index)
            return true
        }
        if removed { waitingCount.subtract(1, ordering: .relaxed) }
    }

    /// The recorder of the oldest waiting exchange `head` is the request of, once.
    fileprivate func take(_ head: HTTPRequestHead) -> (recorder: CallRecorder, attempt: Int)? {
        guard waitingCount.load(ordering: .acquiring) > 0 else { return nil }
        let recorder = waiting.withLock { waiting -> (recorder: CallRecorder, attempt: Int)? in
            guard let index = waiting.firstIndex(where: { $0.matches(head) }) else { return nil }
            let exchange = waiting.remove(at: index)
            return (exchange.recorder, exchange.attempt)
        }
        if recorder != nil { waitingCount.subtract(1, ordering: .relaxed) }
        return recorder
    }

    /// A new connection's number, counted from 1 for this transport.
    fileprivate func newConnectionNumber() -> UInt64 {
        nextConnection.add(1, ordering: .relaxed).newValue
    }

    /// Adds the handlers to every connection `configuration` opens, after the initializers
    /// already there (a TLS pin check runs first). Telling connections apart never fails a
    /// connection: where a pipeline lacks the handler it is placed beside (an AsyncHTTPClient
    /// other than the one tested), the connection is used without it and its exchanges' connections
    /// stay unknown.
    func install(_ configuration: inout HTTPClient.Configuration) {
        let http1 = configuration.http1_1ConnectionDebugInitializer
        configuration.http1_1ConnectionDebugInitializer = { [self] channel in
            (http1?(channel) ?? channel.eventLoop.makeSucceededVoidFuture()).flatMap {
                channel.eventLoop.submit {
                    let sync = channel.pipeline.syncOperations
                    guard let encoder = try? sync.handler(type: HTTPRequestEncoder.self) else { return }
                    let handler = ConnectionUseHandler(ConnectionCounter(number: self.newConnectionNumber()), use: self)
                    try? sync.addHandler(handler, position: .after(encoder))
                }
            }
        }
        let http2 = configuration.http2ConnectionDebugInitializer
        configuration.http2ConnectionDebugInitializer = { [self] channel in
            (http2?(channel) ?? channel.eventLoop.makeSucceededVoidFuture()).flatMap {
                channel.eventLoop.submit {
                    try? channel.pipeline.syncOperations.addHandler(ConnectionCounterHandler(ConnectionCounter(number: self.newConnectionNumber())))
                }
            }
        }
        let stream = configuration.http2StreamChannelDebugInitializer
        configuration.http2StreamChannelDebugInitializer = { [self] channel in
            (stream?(channel) ?? channel.eventLoop.makeSucceededVoidFuture()).flatMap {
                channel.eventLoop.submit {
                    // The stream's connection: its parent channel, on the same event loop.
                    let sync = channel.pipeline.syncOperations
                    guard let parent = channel.parent,
                        let counter = try? parent.pipeline.syncOperations.handler(type: ConnectionCounterHandler.self).counter,
                        let codec = try? sync.handler(type: HTTP2FramePayloadToHTTP1ClientCodec.self)
                    else { return }
                    try? sync.addHandler(ConnectionUseHandler(counter, use: self), position: .after(codec))
                }
            }
        }
    }
}

/// One connection's number and the requests it has carried (used on its event loop only).
final class ConnectionCounter {
    let number: UInt64
    var requests = 0

    init(number: UInt64) {
        self.number = number
    }
}

/// Holds an HTTP/2 connection's ``ConnectionCounter`` in its pipeline, where its streams find it.
final class ConnectionCounterHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = Never
    let counter: ConnectionCounter

    init(_ counter: ConnectionCounter) {
        self.counter = counter
    }
}

/// Counts the request heads a connection writes and tells a recorded exchange which connection
/// carried it (``ConnectionUse``). The head goes out as it came.
final class ConnectionUseHandler: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPClientRequestPart
    typealias OutboundOut = HTTPClientRequestPart

    private let counter: ConnectionCounter
    private let use: ConnectionUse

    init(_ counter: ConnectionCounter, use: ConnectionUse) {
        self.counter = counter
        self.use = use
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .head(let head) = unwrapOutboundIn(data) {
            let reused = counter.requests > 0
            counter.requests += 1
            if let (recorder, attempt) = use.take(head) {
                recorder.record(.connection(number: counter.number, reused: reused), attempt: attempt)
            }
        }
        context.write(data, promise: promise)
    }
}
