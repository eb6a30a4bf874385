import Hummingbird
import NIOCore

/// The sandbox's request context: Hummingbird's basics plus the client's address, so the
/// accounts login limit counts per address (not one shared bucket), and the connection, so a
/// long wait can be ended when the server shuts down.
struct SandboxRequestContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    /// The connected client's address.
    let remoteAddress: SocketAddress?
    /// The connection the request came on.
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress
        self.channel = source.channel
    }
}
