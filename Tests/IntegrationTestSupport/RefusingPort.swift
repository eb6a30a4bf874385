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
        let descriptor = LoopbackSocket.make()
        let (bound, port) = LoopbackSocket.withAddress { address, length in
            bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
        }
        precondition(bound, "could not bind a loopback port")
        self.descriptor = descriptor
        self.port = port
    }

    /// `http://127.0.0.1:PORT`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    deinit { close(descriptor) }
}
