import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP connection to 127.0.0.1 played by hand: a client that sends raw bytes (a request with
/// any `Host`, none at all) and reads whatever comes back until the server closes.
public final class LoopbackConnection: Sendable {
    public let descriptor: Int32

    /// Connects to 127.0.0.1:`port`; reads time out after 15 s.
    public init(port: Int) throws {
        let descriptor = LoopbackSocket.make()
        self.descriptor = descriptor
        let connected = LoopbackSocket.withAddress(port: port) { address, length in connect(descriptor, address, length) }.result
        try #require(connected == 0, "connect: \(errno)")
        var timeout = timeval(tv_sec: 15, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(descriptor) }

    /// Sends `text` as UTF-8.
    public func send(_ text: String) {
        LoopbackSocket.send(descriptor, Array(text.utf8))
    }

    /// Reads until `done` holds for what came, the server closes (true), or 15 s pass (false).
    public func read(until done: @escaping @Sendable (String) -> Bool = { _ in false }) async -> (text: String, closed: Bool) {
        let descriptor = self.descriptor
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                var received: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 65536)
                while true {
                    let count = recv(descriptor, &buffer, buffer.count, 0)
                    if count > 0 {
                        received += buffer[..<count]
                        if done(String(decoding: received, as: UTF8.self)) { break }
                        continue
                    }
                    // 0: the server closed; a reset is a close too; a timeout is not.
                    let closed = count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)
                    return continuation.resume(returning: (String(decoding: received, as: UTF8.self), closed))
                }
                continuation.resume(returning: (String(decoding: received, as: UTF8.self), false))
            }
        }
    }

    /// The status and body of `GET path` with `Host: host`, over a connection of its own.
    public static func get(_ path: String, host: String, port: Int) async throws -> (status: Int, text: String) {
        let connection = try LoopbackConnection(port: port)
        connection.send("GET \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
        let answer = await connection.read()
        let status = answer.text.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) } ?? 0
        return (status, answer.text)
    }
}
