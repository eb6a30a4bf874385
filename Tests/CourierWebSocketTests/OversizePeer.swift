#if WebSocket  // the `WebSocket` trait: Package.swift
import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOWebSocket

/// A Hummingbird WebSocket server on 127.0.0.1 that sends what the sandbox's routes never do:
/// a message over a client's size limit, in one frame or in many, and a flood of big messages.
///
/// | path | sends |
/// |---|---|
/// | `/one-frame?bytes=N` | one binary frame of N bytes, then waits for the client to leave |
/// | `/fragments?bytes=N&frame=F` | one binary message of N bytes in frames of F bytes, then waits |
/// | `/flood?count=C&bytes=N` | C binary messages of N bytes (each starts with its index, 4 bytes big-endian), then closes with 1000 |
/// | `/nested?depth=N` | the texts `[` × N and `{"a":` × N, then ``tick`` (a valid ticker message), then waits |
final class OversizePeer: Sendable {
    let port: Int
    private let task: Task<Void, any Error>

    private init(port: Int, task: Task<Void, any Error>) {
        self.port = port
        self.task = task
    }

    /// `ws://127.0.0.1:PORT/path`.
    func url(_ path: String) -> URL {
        URL(string: "ws://127.0.0.1:\(port)\(path)")!
    }

    /// Starts the server on an ephemeral port.
    static func start() async throws -> OversizePeer {
        let (ports, announce) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "test.oversize-peer")
        // Stopping by cancellation makes Hummingbird log its cancelled connections as errors.
        logger.logLevel = .critical
        let app = Application(
            router: Router(),
            // Frames up to 64 MiB both ways: the server must be able to send what the client refuses.
            server: .http1WebSocketUpgrade(configuration: .init(ws: .init(maxFrameSize: 64 << 20, autoPing: .disabled))) { request, _, _ in
                let query = Query(request.path ?? "/")
                return .upgrade([:]) { inbound, outbound, _ in
                    switch query.path {
                    case "/one-frame":
                        try await outbound.write(
                            .custom(WebSocketFrame(fin: true, opcode: .binary, data: OversizePeer.filler(query.number("bytes")))))
                    case "/fragments":
                        let total = query.number("bytes")
                        let size = max(1, query.number("frame"))
                        var sent = 0
                        while sent < total {
                            let count = min(size, total - sent)
                            let frame = WebSocketFrame(
                                fin: sent + count == total, opcode: sent == 0 ? .binary : .continuation, data: OversizePeer.filler(count))
                            try await outbound.write(.custom(frame))
                            sent += count
                        }
                    case "/nested":
                        let depth = query.number("depth")
                        for text in [String(repeating: "[", count: depth), String(repeating: #"{"a":"#, count: depth), OversizePeer.tick] {
                            try await outbound.write(.text(text))
                        }
                    case "/flood":
                        for index in 0..<query.number("count") {
                            var buffer = OversizePeer.filler(query.number("bytes"))
                            buffer.setInteger(UInt32(index), at: buffer.readerIndex)
                            try await outbound.write(.binary(buffer))
                        }
                        try await outbound.close(.normalClosure, reason: nil)
                        return
                    default:
                        try await outbound.close(.policyViolation, reason: "unknown path")
                        return
                    }
                    for try await _ in inbound {}  // until the client leaves
                }
            },
            configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: "oversize-peer"),
            onServerRunning: { channel in announce.yield(channel.localAddress?.port ?? 0) },
            logger: logger
        )
        let task = Task { try await app.runService(gracefulShutdownSignals: []) }
        var iterator = ports.makeAsyncIterator()
        let port = await iterator.next() ?? 0
        return OversizePeer(port: port, task: task)
    }

    /// Stops the server (its connections are closed) and waits until it has.
    func stop() async {
        task.cancel()
        _ = await task.result
    }

    /// The ticker message `/nested` sends last: KRW-BTC at 1, `seq` 1.
    static let tick =
        #"{"code":"KRW-BTC","trade_price":1,"prev_closing_price":1,"change":"EVEN","signed_change_price":0,"#
        + #""signed_change_rate":0,"trade_volume":1,"acc_trade_volume":1,"trade_timestamp":1,"timestamp":1,"seq":1}"#

    /// `count` bytes of `a`.
    private static func filler(_ count: Int) -> ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: count)
        buffer.writeRepeatingByte(UInt8(ascii: "a"), count: count)
        return buffer
    }

    /// A request target's path and integer query items.
    private struct Query: Sendable {
        let path: String
        private let items: [String: Int]

        init(_ target: String) {
            let components = URLComponents(string: "http://peer\(target)")
            path = components?.path ?? "/"
            items = Dictionary((components?.queryItems ?? []).map { ($0.name, Int($0.value ?? "") ?? 0) }) { first, _ in first }
        }

        func number(_ name: String) -> Int { items[name] ?? 0 }
    }
}

/// Runs `body` against a fresh ``OversizePeer`` and stops it afterwards, whether `body` returns or throws.
func withOversizePeer<T>(_ body: (OversizePeer) async throws -> T) async throws -> T {
    let peer = try await OversizePeer.start()
    do {
        let result = try await body(peer)
        await peer.stop()
        return result
    } catch {
        await peer.stop()
        throw error
    }
}
#endif  // WebSocket
