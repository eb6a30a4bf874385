import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A loopback port this process has bound but does not listen on: a connection to it is refused,
/// and no other test's server can take the port while it is held (a closed server's port can be).
public final class RefusingPort {
    public let port: Int
    private let descriptor: Int32

    public init() {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(descriptor, raw, length) == 0 && getsockname(descriptor, raw, &length) == 0
            }
        }
        precondition(bound, "could not bind a loopback port")
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// `http://127.0.0.1:PORT`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    deinit { close(descriptor) }
}
