import Foundation
import NIOCore
import NIOPosix

/// The suite's origin, written on bare SwiftNIO so every `Set-Cookie` value goes out byte for byte
/// as the suite gives it — control characters and non-ASCII included, which an HTTP library's
/// field type would refuse or rewrite. `GET /cookie-parser?ID` answers the test's `Set-Cookie`
/// values; any other path answers 200 with the request's `Cookie` field values as its body (one per
/// line). One request per connection (`Connection: close`).
final class RawCookieOrigin: Sendable {
    let channel: any Channel
    let port: Int

    /// Listens on 127.0.0.1 (an ephemeral port) and answers from `setCookies` (test id → values).
    init(setCookies: [String: [String]]) async throws {
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(RequestHandler(setCookies: setCookies))
                }
            }
        channel = try await bootstrap.bind(host: "127.0.0.1", port: 0).get()
        port = channel.localAddress?.port ?? 0
    }

    func close() async {
        try? await channel.close()
    }

    /// Reads one request head (at most 64 KiB), answers it, closes.
    final class RequestHandler: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer

        let setCookies: [String: [String]]
        private var head: [UInt8] = []

        init(setCookies: [String: [String]]) {
            self.setCookies = setCookies
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var buffer = unwrapInboundIn(data)
            head += buffer.readBytes(length: buffer.readableBytes) ?? []
            let end: [UInt8] = Array("\r\n\r\n".utf8)
            let complete = head.count >= 4 && (0...(head.count - 4)).contains { Array(head[$0..<($0 + 4)]) == end }
            guard complete || head.count > 65_536 else { return }
            let response = answer(String(decoding: head, as: UTF8.self))
            head = []
            var out = context.channel.allocator.buffer(capacity: response.count)
            out.writeBytes(response)
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(out)).whenComplete { _ in channel.close(promise: nil) }
        }

        /// The raw response to a request head.
        func answer(_ head: String) -> [UInt8] {
            let lines = head.components(separatedBy: "\r\n")
            let target = lines.first?.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
            let path = target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? target
            let query = target.split(separator: "?", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
            var response = "HTTP/1.1 200 OK\r\nConnection: close\r\n"
            var body = ""
            if path == "/cookie-parser" {
                // The id, without the `=` a query encoder may add.
                let id = query.hasSuffix("=") ? String(query.dropLast()) : query
                for value in setCookies[id] ?? [] { response += "Set-Cookie: \(value)\r\n" }
            } else {
                body = lines.dropFirst().compactMap { line -> String? in
                    guard let colon = line.firstIndex(of: ":"), line[..<colon].lowercased() == "cookie" else { return nil }
                    return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }.joined(separator: "\n")
            }
            response += "Content-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body
            return Array(response.utf8)
        }
    }
}
