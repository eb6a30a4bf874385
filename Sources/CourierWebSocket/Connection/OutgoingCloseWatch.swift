#if WebSocket  // the `WebSocket` trait: Package.swift
import NIOCore
import NIOWebSocket
import Synchronization
import WSClient

/// Records the first close frame this side sends — by the caller, by WSClient's heartbeat
/// ("Ping timeout", 1001) or by WSClient's reader on a protocol violation (1002, 1007, 1009) —
/// so the connection can say why it ended. WSClient handles those cases internally; a
/// non-negotiated extension (swift-websocket's hook for exactly this) sees every frame it sends.
final class OutgoingCloseWatch: Sendable {
    private let first = Mutex<(code: Int, reason: String?)?>(nil)

    /// The first close frame sent, if any.
    var sent: (code: Int, reason: String?)? { first.withLock { $0 } }

    /// The extension factory to put in WSClient's configuration.
    var factory: WebSocketExtensionFactory {
        .nonNegotiatedExtension { Watch(owner: self) }
    }

    fileprivate func record(_ frame: WebSocketFrame) {
        var data = frame.unmaskedData
        let code = data.readWebSocketErrorCode().map { Int(UInt16(webSocketErrorCode: $0)) } ?? 1005
        let reason = data.readableBytes > 0 ? data.readString(length: data.readableBytes) : nil
        first.withLock { if $0 == nil { $0 = (code, reason) } }
    }

    private struct Watch: WebSocketExtension {
        let owner: OutgoingCloseWatch
        var name: String { "courier-close-watch" }

        func processReceivedFrame(_ frame: WebSocketFrame, context: WebSocketExtensionContext) async throws -> WebSocketFrame {
            frame
        }

        func processFrameToSend(_ frame: WebSocketFrame, context: WebSocketExtensionContext) async throws -> WebSocketFrame {
            if frame.opcode == .connectionClose { owner.record(frame) }
            return frame
        }

        func shutdown() async {}
    }
}
#endif  // WebSocket
