import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// The context of the sandbox's WebSocket routes: what an upgrade needs, plus the connection,
/// so a fault knob can drop it without a close frame.
struct TickerRequestContext: RequestContext, WebSocketRequestContext {
    var coreContext: CoreRequestContextStorage
    let webSocket: WebSocketHandlerReference<TickerRequestContext>
    /// The TCP connection the upgrade came on.
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.webSocket = .init()
        self.channel = source.channel
    }
}
