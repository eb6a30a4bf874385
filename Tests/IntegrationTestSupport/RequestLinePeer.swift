import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A raw HTTP/1.1 peer on the loopback (127.0.0.1, or `[::1]`) that keeps the request line of
/// every request it receives exactly as the bytes came — the judge of what a client sends, with
/// no HTTP library in between to normalise it. Each request is answered by `answer` (default:
/// `200`, body `ok`) and its connection closed.
public final class RequestLinePeer: Sendable {
    /// The port it listens on.
    public let port: Int
    /// `127.0.0.1`, or `[::1]` for an IPv6 peer.
    public let host: String
    private let descriptor: Int32
    private let state = State()

    /// What the listening thread and the tests share (a class: the thread keeps it).
    private final class State: Sendable {
        private let value = Mutex<(lines: [String], stopped: Bool)>(([], false))
        var lines: [String] { value.withLock { $0.lines } }
        var stopped: Bool { value.withLock { $0.stopped } }
        func append(_ line: String) { value.withLock { $0.lines.append(line) } }
        func stop() { value.withLock { $0.stopped = true } }
    }

    /// `http://HOST:PORT`, without a trailing slash.
    public var base: String { "http://\(host):\(port)" }

    /// The request lines received so far, in order (`GET /echo?0001 HTTP/1.1`).
    public var lines: [String] { state.lines }

    /// The request target of each line received so far (`/echo?0001`).
    public var targets: [String] { lines.map { $0.split(separator: " ", omittingEmptySubsequences: false).dropFirst().first.map(String.init) ?? "" } }

    /// A peer on 127.0.0.1 (`ipv6`: on ::1) that answers each request line with `answer`'s
    /// status line and header fields (`Content-Length` and `Connection: close` are added).
    public init(ipv6: Bool = false, answer: @escaping @Sendable (String) -> String = { _ in "HTTP/1.1 200 OK\r\nContent-Type: text/plain" }) throws {
        (descriptor, port) = try Self.makeListener(ipv6: ipv6)
        host = ipv6 ? "[::1]" : "127.0.0.1"
        let descriptor = descriptor
        Thread.detachNewThread { [state] in
            while !state.stopped {
                let connection = accept(descriptor, nil, nil)
                guard connection >= 0 else { return }
                defer { close(connection) }
                guard let line = Self.requestLine(connection) else { continue }
                state.append(line)
                LoopbackSocket.send(connection, Array((answer(line) + "\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok").utf8))
            }
        }
    }

    /// Stops listening.
    public func stop() {
        state.stop()
        shutdown(descriptor, Int32(SHUT_RDWR))
        close(descriptor)
    }

    /// The first line of the request head read from `connection` (a head of at most 64 KiB, 10 s).
    private static func requestLine(_ connection: Int32) -> String? {
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var head: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while head.firstRange(of: Array("\r\n\r\n".utf8)) == nil {
            guard head.count < 65536 else { return nil }
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            head += buffer[..<count]
        }
        let lineEnd = head.firstRange(of: Array("\r\n".utf8))?.lowerBound ?? head.endIndex
        return String(decoding: head[..<lineEnd], as: UTF8.self)
    }

    /// A listening TCP socket on the loopback and its port.
    private static func makeListener(ipv6: Bool) throws -> (Int32, Int) {
        guard ipv6 else {
            let descriptor = LoopbackSocket.make()
            let (listening, port) = LoopbackSocket.withAddress { address, length in
                bind(descriptor, address, length) == 0 && listen(descriptor, 16) == 0 && getsockname(descriptor, address, &length) == 0
            }
            guard listening else { throw POSIXError(.EADDRNOTAVAIL) }
            return (descriptor, port)
        }
        #if canImport(Glibc)
        let descriptor = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET6, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_addr = in6addr_loopback
        var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        let listening = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && listen(descriptor, 16) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard listening else { throw POSIXError(.EADDRNOTAVAIL) }
        return (descriptor, Int(UInt16(bigEndian: address.sin6_port)))
    }
}
