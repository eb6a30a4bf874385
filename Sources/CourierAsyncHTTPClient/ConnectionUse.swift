import AsyncHTTPClient
import CourierTransportCore
import NIOCore
import NIOHTTP1
import NIOHTTP2
import Synchronization

/// Tells a call's timeline whether each of its exchanges went out on a new connection or on one
/// kept from an earlier request (`CallEvent.Kind.connection`), through AsyncHTTPClient's
/// connection initializers — it has no other hook: its requests never learn their connection.
///
/// Every connection the transport's clients open gets a handler, added by the connection
/// initializers after the TLS handshake and before the first request: an HTTP/1.1 connection's
/// in front of the request encoder, an HTTP/2 stream's in front of the HTTP/2 codec (the stream's
/// handler counts the requests of the connection it belongs to). A request whose call is recorded
/// carries a marker field naming its exchange (``field``); the handler takes the marker off before
/// the head is encoded — it never reaches the network — and records on the exchange's recorder
/// the connection's number and whether it served a request before. A request of a call nobody
/// records carries no marker and costs the handler a counter and an atomic load.
enum ConnectionUse {
    /// The marker field's name.
    static let field = "x-courier-exchange"

    /// Exchanges waiting for their head to be written, by marker.
    private static let waiting = Mutex<[UInt64: CallRecorder]>([:])
    /// How many are waiting: a handler reads this before looking for the marker.
    private static let waitingCount = Atomic<Int>(0)
    private static let nextExchange = Atomic<UInt64>(0)
    private static let nextConnection = Atomic<UInt64>(0)

    /// Registers an exchange of the call `recorder` records; returns the marker its request carries.
    static func register(_ recorder: CallRecorder) -> String {
        let id = nextExchange.add(1, ordering: .relaxed).newValue
        waiting.withLock { $0[id] = recorder }
        waitingCount.add(1, ordering: .releasing)
        return String(id)
    }

    /// Forgets the exchange `marker` names (its head was written, or it failed before a connection).
    static func finish(_ marker: String) {
        guard let id = UInt64(marker), waiting.withLock({ $0.removeValue(forKey: id) }) != nil else { return }
        waitingCount.subtract(1, ordering: .relaxed)
    }

    /// The recorder of the exchange `marker` names, once.
    fileprivate static func take(_ marker: String) -> CallRecorder? {
        guard let id = UInt64(marker), let recorder = waiting.withLock({ $0.removeValue(forKey: id) }) else { return nil }
        waitingCount.subtract(1, ordering: .relaxed)
        return recorder
    }

    fileprivate static var anyWaiting: Bool { waitingCount.load(ordering: .acquiring) > 0 }

    fileprivate static func newConnectionNumber() -> UInt64 {
        nextConnection.add(1, ordering: .relaxed).newValue
    }

    /// Adds the handlers to every connection `configuration` opens, after the initializers
    /// already there (a TLS pin check runs first). Telling connections apart never fails a
    /// connection: where a pipeline lacks the handler it is placed beside (an AsyncHTTPClient
    /// other than the one tested), the connection is used without it — and a marker sent on it
    /// would reach the server, which is why the tests check what the server receives over
    /// HTTP/1.1 and HTTP/2 (ConnectionUseTests).
    static func install(_ configuration: inout HTTPClient.Configuration) {
        let http1 = configuration.http1_1ConnectionDebugInitializer
        configuration.http1_1ConnectionDebugInitializer = { channel in
            (http1?(channel) ?? channel.eventLoop.makeSucceededVoidFuture()).flatMap {
                channel.eventLoop.submit {
                    let sync = channel.pipeline.syncOperations
                    guard let encoder = try? sync.handler(type: HTTPRequestEncoder.self) else { return }
                    try? sync.addHandler(ConnectionUseHandler(ConnectionCounter()), position: .after(encoder))
                }
            }
        }
        let http2 = configuration.http2ConnectionDebugInitializer
        configuration.http2ConnectionDebugInitializer = { channel in
            (http2?(channel) ?? channel.eventLoop.makeSucceededVoidFuture()).flatMap {
                channel.eventLoop.submit {
                    try? channel.pipeline.syncOperations.addHandler(ConnectionCounterHandler())
                }
            }
        }
        let stream = configuration.http2StreamChannelDebugInitializer
        configuration.http2StreamChannelDebugInitializer = { channel in
            (stream?(channel) ?? channel.eventLoop.makeSucceededVoidFuture()).flatMap {
                channel.eventLoop.submit {
                    // The stream's connection: its parent channel, on the same event loop.
                    let sync = channel.pipeline.syncOperations
                    guard let parent = channel.parent,
                        let counter = try? parent.pipeline.syncOperations.handler(type: ConnectionCounterHandler.self).counter,
                        let codec = try? sync.handler(type: HTTP2FramePayloadToHTTP1ClientCodec.self)
                    else { return }
                    try? sync.addHandler(ConnectionUseHandler(counter), position: .after(codec))
                }
            }
        }
    }
}

/// One connection's number and the requests it has carried (used on its event loop only).
final class ConnectionCounter {
    let number = ConnectionUse.newConnectionNumber()
    var requests = 0
}

/// Holds an HTTP/2 connection's ``ConnectionCounter`` in its pipeline, where its streams find it.
final class ConnectionCounterHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = Never
    let counter = ConnectionCounter()
}

/// Counts the request heads a connection writes and tells a recorded exchange which connection
/// carried it (``ConnectionUse``).
final class ConnectionUseHandler: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPClientRequestPart
    typealias OutboundOut = HTTPClientRequestPart

    private let counter: ConnectionCounter

    init(_ counter: ConnectionCounter) {
        self.counter = counter
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .head(var head) = unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        let reused = counter.requests > 0
        counter.requests += 1
        guard ConnectionUse.anyWaiting, let marker = head.headers.first(name: ConnectionUse.field) else {
            context.write(data, promise: promise)
            return
        }
        head.headers.remove(name: ConnectionUse.field)
        ConnectionUse.take(marker)?.record(.connection(number: counter.number, reused: reused))
        context.write(wrapOutboundOut(.head(head)), promise: promise)
    }
}
