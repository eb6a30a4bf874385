import Foundation
import HummingbirdWebSocket
import NIOCore
import NIOWebSocket
import Synchronization

/// One ticker connection on the stand-in: reads subscriptions, sends a snapshot per code and
/// then a message per code every tick, and obeys the hub's fault knobs while it runs.
final class TickerConnection: Sendable {
    private struct Subscription {
        var codes: [String] = []
        var snapshotDue = false
        var readerDone = false
        /// When the first subscription was read: the drop fault counts from here.
        var subscribedAt: ContinuousClock.Instant?
    }

    let hub: TickerHub
    let outbound: WebSocketOutboundWriter
    let channel: any Channel
    let interval: Duration
    private let subscription = Mutex(Subscription())
    private static let encoder = JSONEncoder()

    init(hub: TickerHub, outbound: WebSocketOutboundWriter, channel: any Channel, interval: Duration) {
        self.hub = hub
        self.outbound = outbound
        self.channel = channel
        self.interval = interval
    }

    func run(_ inbound: WebSocketInboundStream) async throws {
        hub.record {
            $0.opened += 1
            $0.open += 1
        }
        defer { hub.record { $0.open -= 1 } }
        let reader = Task { await self.read(inbound) }
        defer { reader.cancel() }
        var index = hub.feed.currentIndex(interval: interval)
        var silent = false
        do {
            while channel.isActive {
                if subscription.withLock({ $0.readerDone }), !silent { break }
                let faults = hub.currentFaults
                if faults.dropAfterMs > 0, let subscribedAt = subscription.withLock({ $0.subscribedAt }),
                    subscribedAt.duration(to: .now) >= .milliseconds(faults.dropAfterMs)
                {
                    hub.record { $0.droppedByServer += 1 }
                    if faults.dropMode == "close" {
                        try? await outbound.close(WebSocketErrorCode(codeNumber: 1012), reason: "service restart")
                    } else {
                        try? await channel.close()
                    }
                    return
                }
                if faults.silent || silent {
                    // Stop reading (so pings go unanswered) and sending, until the client gives up.
                    silent = true
                    reader.cancel()
                    try await Task.sleep(for: .milliseconds(20))
                    continue
                }
                let (codes, snapshotDue) = subscription.withLock { state in
                    defer { state.snapshotDue = false }
                    return (state.codes, state.snapshotDue)
                }
                if snapshotDue {
                    index = hub.feed.currentIndex(interval: interval)
                    try await send(codes, at: index, snapshot: true)
                    if let kind = hub.takeMalformed() { try await sendMalformed(kind) }
                }
                let nextTick = hub.feed.time(of: index + 1, interval: interval).timeIntervalSinceNow
                if nextTick > 0 {
                    try await Task.sleep(for: .milliseconds(min(20, Int(nextTick * 1000) + 1)))
                    continue
                }
                index = max(index + 1, hub.feed.currentIndex(interval: interval))
                try await send(codes, at: index, snapshot: false)
            }
        } catch {
            // A write or sleep failed: the client left while a tick was being sent.
        }
        // The client closed, dropped the socket, or (silent) gave up on its heartbeat.
        hub.record { $0.closedByClient += 1 }
    }

    private func read(_ inbound: WebSocketInboundStream) async {
        do {
            for try await message in inbound.messages(maxSize: 1 << 16) {
                guard let codes = Self.codes(in: message) else {
                    try await outbound.writeTextMessage(
                        #"{"error":{"name":"WRONG_FORMAT","message":"expected [{\"ticket\":…},{\"type\":\"ticker\",\"codes\":[…]}]"}}"#)
                    continue
                }
                hub.record { $0.subscriptions += 1 }
                subscription.withLock { state in
                    state.codes = codes
                    state.snapshotDue = true
                    if state.subscribedAt == nil { state.subscribedAt = .now }
                }
            }
        } catch {}
        subscription.withLock { $0.readerDone = true }
    }

    private func send(_ codes: [String], at index: Int, snapshot: Bool) async throws {
        for code in codes {
            let message = hub.feed.ticker(code, at: index, interval: interval, snapshot: snapshot)
            let data = (try? Self.encoder.encode(message)) ?? Data()
            try await outbound.write(.binary(ByteBuffer(bytes: data)))
        }
        if !codes.isEmpty { hub.record { $0.messagesSent += codes.count } }
    }

    private func sendMalformed(_ kind: String) async throws {
        let frame =
            switch kind {
            case "rsv": WebSocketFrame(fin: true, rsv1: true, opcode: .text, data: ByteBuffer(string: "{}"))
            case "continuation": WebSocketFrame(fin: true, opcode: .continuation, data: ByteBuffer(string: "{}"))
            default: WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(bytes: [0x7B, 0xC3, 0x28, 0x7D]))
            }
        try await outbound.write(.custom(frame))
    }

    /// The codes of an Upbit subscription (`[{"ticket":…},{"type":"ticker","codes":[…]}]`), or nil.
    static func codes(in message: WebSocketMessage) -> [String]? {
        let data: Data
        switch message {
        case .text(let text): data = Data(text.utf8)
        case .binary(let buffer): data = Data(buffer.readableBytesView)
        }
        guard let items = (try? JSONSerialization.jsonObject(with: data)) as? [Any] else { return nil }
        for case let item as [String: Any] in items where item["type"] as? String == "ticker" {
            guard let codes = item["codes"] as? [String], !codes.isEmpty else { return nil }
            return codes.map { $0.uppercased() }
        }
        return nil
    }
}
