import Hummingbird
import NIOCore

/// The sandbox's request context: Hummingbird's basics plus the client's address, so the
/// accounts login limit counts per address (not one shared bucket).
struct SandboxRequestContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    /// The connected client's address.
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress
    }
}
