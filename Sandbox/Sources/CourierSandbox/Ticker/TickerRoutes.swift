import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import NIOCore
import NIOWebSocket

/// A WebSocket ticker in Upbit's format, an echo peer, and their fault knobs.
///
/// | route | what |
/// |---|---|
/// | `ws /websocket/v1?interval=MS` | Upbit-style ticker: send `[{"ticket":"…"},{"type":"ticker","codes":["KRW-BTC",…]}]`; get a `SNAPSHOT` per code, then a `REALTIME` message per code every `interval` ms (default 100), as binary frames of JSON with Upbit's field names plus `seq` (the tick number: the same tick has the same `seq` and price on every connection) |
/// | `ws /ws/echo` | echoes text and binary messages; the text `close:CODE:REASON` makes it close with that code |
/// | `GET /websocket/v1`, `GET /ws/echo` (no upgrade) | 426; 503 for a handshake refused by the `refuse` knob |
/// | `POST /ticker/faults?dropAfterMs=&dropMode=abrupt\|close&silent=&refuse=&malformed=&malformedKind=utf8\|continuation\|rsv` | sets the knobs given (see ``TickerHub/Faults``); answers them |
/// | `GET /ticker/stats` | ``TickerHub/Stats`` |
/// | `POST /ticker/reset` | 204; knobs off, counters zero |
struct TickerRoutes {
    let hub: TickerHub

    func register(on router: Router<SandboxRequestContext>) {
        let hub = self.hub
        for path in ["/websocket/v1", "/ws/echo"] {
            router.get(RouterPath(path)) { request, _ -> Response in
                let refused = request.headers[.upgrade]?.lowercased() == "websocket"
                return Response(
                    status: refused ? .serviceUnavailable : .upgradeRequired,
                    headers: [.contentType: "text/plain; charset=utf-8"],
                    body: .init(
                        byteBuffer: ByteBuffer(string: refused ? "handshake refused (fault knob)\n" : "a WebSocket endpoint: connect with ws://\n")))
            }
        }
        router.post("/ticker/faults") { request, _ in
            let query = QueryReader(request)
            let dropAfterMs = try query.integer("dropAfterMs", in: 0...3_600_000)
            let refuse = try query.integer("refuse", in: 0...1000)
            let malformed = try query.integer("malformed", in: 0...1000)
            let silent = query.text("silent") == nil ? nil : try query.flag("silent")
            let dropMode = query.text("dropMode")
            let malformedKind = query.text("malformedKind")
            guard dropMode.map({ ["abrupt", "close"].contains($0) }) ?? true else {
                throw HTTPError(.badRequest, message: "dropMode must be abrupt or close")
            }
            guard malformedKind.map({ ["utf8", "continuation", "rsv"].contains($0) }) ?? true else {
                throw HTTPError(.badRequest, message: "malformedKind must be utf8, continuation or rsv")
            }
            hub.setFaults { faults in
                if let dropAfterMs { faults.dropAfterMs = dropAfterMs }
                if let refuse { faults.refuse = refuse }
                if let malformed { faults.malformed = malformed }
                if let silent { faults.silent = silent }
                if let dropMode { faults.dropMode = dropMode }
                if let malformedKind { faults.malformedKind = malformedKind }
            }
            return JSONResponse.make(hub.currentFaults)
        }
        router.get("/ticker/stats") { _, _ in JSONResponse.make(hub.currentStats) }
        router.post("/ticker/reset") { _, _ in
            hub.reset()
            return Response(status: .noContent)
        }
    }

    func registerWebSocket(on router: Router<TickerRequestContext>) {
        let hub = self.hub
        router.ws("/websocket/v1", shouldUpgrade: { _, _ in hub.admitHandshake() ? .upgrade([:]) : .dontUpgrade }) {
            inbound, outbound, context in
            let interval = Duration.milliseconds(max(5, Int(context.request.uri.queryParameters["interval"].map(String.init) ?? "") ?? 100))
            let connection = TickerConnection(hub: hub, outbound: outbound, channel: context.requestContext.channel, interval: interval)
            try await connection.run(inbound)
        }
        router.ws("/ws/echo", shouldUpgrade: { _, _ in hub.admitHandshake() ? .upgrade([:]) : .dontUpgrade }) { inbound, outbound, _ in
            hub.record {
                $0.opened += 1
                $0.open += 1
            }
            defer { hub.record { $0.open -= 1 } }
            for try await message in inbound.messages(maxSize: 16 << 20) {
                switch message {
                case .text(let text) where text.hasPrefix("close:"):
                    let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
                    let code = parts.count > 1 ? Int(parts[1]) ?? 1000 : 1000
                    try await outbound.close(WebSocketErrorCode(codeNumber: code), reason: parts.count > 2 ? String(parts[2]) : nil)
                    return
                case .text(let text):
                    try await outbound.writeTextMessage(text)
                case .binary(let buffer):
                    try await outbound.writeBinaryMessage(buffer)
                }
            }
            hub.record { $0.closedByClient += 1 }
        }
    }
}
