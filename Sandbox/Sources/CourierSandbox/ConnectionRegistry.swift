import NIOCore
import Synchronization

/// The sandbox's open connections, so that a stop past its grace period can close them.
///
/// Neither the graceful stop nor cancelling the server reaches every connection: one a client
/// opened without sending a request yet (a pool opens spares) waits in the WebSocket upgrade
/// check, which hears neither, and Hummingbird answers cancellation by closing a connection's
/// input only. Such a connection held the stop until the client closed it — for a pool's idle
/// connection 60 s (AsyncHTTPClient), for a client that never does, for ever.
final class ConnectionRegistry: Sendable {
    private let channels = Mutex<[ObjectIdentifier: any Channel]>([:])

    /// Registers every connection `server` accepts from now on, until it closes.
    func watch(server: any Channel) async {
        try? await server.eventLoop.submit {
            try server.pipeline.syncOperations.addHandler(AcceptWatcher(registry: self), position: .first)
        }.get()
    }

    /// Closes every open connection.
    func closeAll() {
        for channel in channels.withLock({ Array($0.values) }) { channel.close(promise: nil) }
    }

    /// Connections accepted since the server started.
    var accepted: Int { acceptedCount.withLock { $0 } }
    private let acceptedCount = Mutex(0)

    private func add(_ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        acceptedCount.withLock { $0 += 1 }
        channels.withLock { $0[id] = channel }
        channel.closeFuture.whenComplete { [weak self] _ in
            _ = self?.channels.withLock { $0.removeValue(forKey: id) }
        }
    }

    /// On the server channel: sees each accepted connection and passes it on.
    private final class AcceptWatcher: ChannelInboundHandler {
        typealias InboundIn = any Channel
        let registry: ConnectionRegistry

        init(registry: ConnectionRegistry) { self.registry = registry }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            registry.add(unwrapInboundIn(data))
            context.fireChannelRead(data)
        }
    }
}
