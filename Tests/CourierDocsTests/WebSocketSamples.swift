#if WebSocket  // the `WebSocket` trait: Package.swift
// Mirrors: README.md
// Mirrors: Sources/CourierWebSocket/CourierWebSocket.docc/CourierWebSocket.md
//
// README's "WebSockets: staying connected" sample, line for line, run against the sandbox's
// Upbit-style ticker: the session subscribes in `onConnect` and the messages are its tickers.

import AlanAPI
import Courier
import CourierSandbox
import CourierWebSocket
import Foundation
import Synchronization
import Testing

enum StayingConnected {
    /// The README's sample; `handle` sees each message; cancelling the task ends it (and closes the session).
    static func run(url: URL, handle: @escaping @Sendable (Data) -> Void) async throws(NetworkError) {
        let subscription = UpbitSubscription.ticker(codes: ["KRW-BTC", "KRW-ETH"])
        let client = WebSocketClient(configuration: .init(url: url, pingInterval: .seconds(10)))
        let session = WebSocketSession(client: client, reconnect: .init(initialDelay: .milliseconds(250), maxDelay: .seconds(30))) { connection throws(NetworkError) in
            try await connection.send(text: subscription)   // the feed's subscribe message, on every connect
        }
        for try await message in session.messages {   // across reconnects, in order
            handle(message.data)
        }
    }
}

@Suite("README: WebSockets, staying connected")
struct WebSocketReadmeSampleTests {
    @Test("the README's session subscribes on connect and reads decodable tickers for both codes; cancelling the reader ends it")
    func readmeSession() async throws {
        let sandbox = try await SandboxServer.start()
        let url = URL(string: "ws://\(sandbox.host):\(sandbox.port)/websocket/v1?interval=20")!
        let codes = Mutex<[String]>([])
        let reader = Task { () async throws(NetworkError) -> Bool in
            try await StayingConnected.run(url: url, handle: { data in
                if let ticker = try? JSONDecoder().decode(UpbitTicker.self, from: data) {
                    codes.withLock { $0.append(ticker.code) }
                }
            })
            return true
        }
        // Six tickers come in 120 ms on a quiet machine; the bound is for a loaded one (a parallel
        // test pass beside builds delivered 5 in 10 s).
        let deadline = ContinuousClock.now + .seconds(60)
        while codes.withLock({ $0.count }) < 6, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        reader.cancel()
        await #expect(throws: NetworkError.taskCancelled) { _ = try await reader.value }
        #expect(Set(codes.withLock { $0 }) == ["KRW-BTC", "KRW-ETH"])
        #expect(codes.withLock { $0.count } >= 6)
        await sandbox.stop()
    }
}
#endif  // WebSocket
