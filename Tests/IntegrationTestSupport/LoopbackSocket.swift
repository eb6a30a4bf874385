import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP socket on 127.0.0.1, for tests that play a peer by hand (a port that refuses, a listener
/// that never answers, a client that sends nothing).
public enum LoopbackSocket {
    /// A new TCP socket.
    public static func make() -> Int32 {
        #if canImport(Glibc)
        socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        socket(AF_INET, SOCK_STREAM, 0)
        #endif
    }

    /// Calls `body` with 127.0.0.1:`port` (0: any) as a `sockaddr` and its length; returns what
    /// it returned and the port the address holds afterwards (`getsockname` fills it in).
    public static func withAddress<T>(port: Int = 0, _ body: (UnsafeMutablePointer<sockaddr>, inout socklen_t) -> T) -> (result: T, port: Int) {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let result = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, &length) }
        }
        return (result, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// Sends all of `bytes` it can at once, never raising SIGPIPE; the count sent.
    @discardableResult
    public static func send(_ descriptor: Int32, _ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBytes { buffer in
            #if canImport(Glibc)
            Glibc.send(descriptor, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
            #else
            Darwin.send(descriptor, buffer.baseAddress, buffer.count, 0)
            #endif
        }
    }
}
