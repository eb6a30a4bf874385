#if WebSocket  // the `WebSocket` trait: Package.swift
import AlanAPI
import Courier
import CourierSandbox
import IntegrationTestSupport
import CourierWebSocket
import Foundation
import Testing

@Suite("WebSocket session: reconnects, heartbeat, backoff, buffering", .tags(.timing))
struct WebSocketSessionTests {
    static let fast = ReconnectPolicy(initialDelay: .milliseconds(50), maxDelay: .milliseconds(400), jitter: 0.2, resetAfter: .seconds(30))

    /// A session on the ticker stand-in (a tick every 20 ms) that subscribes to KRW-BTC on every
    /// connect. Its buffer drops the oldest ticks: the tests do not read every tick, and under
    /// `.suspend` a full buffer (256 ticks: about 5 s) stops the session reading the socket, so a
    /// server's drop would go unnoticed until someone reads — on a loaded machine, before the test
    /// had even set its fault.
    static func btcSession(_ sandbox: RunningSandbox) -> WebSocketSession {
        let client = WebSocketClient(configuration: .init(url: webSocketURL(sandbox, "/websocket/v1?interval=20")))
        return WebSocketSession(client: client, reconnect: fast, buffer: .dropOldest(limit: 64)) { connection throws(NetworkError) in
            try await connection.send(text: UpbitSubscription.ticker(codes: ["KRW-BTC"]))
        }
    }

    @Test("after a server drop the session reconnects within the backoff bounds and resubscribes")
    func reconnectsAfterDrop() async throws {
        try await withSandbox { sandbox in
            let session = Self.btcSession(sandbox)
            let log = StateLog(session)
            await eventually { log.connections == 1 }
            try await setFaults(sandbox, "dropAfterMs=300")
            if !(await eventually(timeout: .seconds(30)) { log.connections >= 3 }) {
                Issue.record("the session's states: \(log.timed.map { "\($0.0) at \($0.1)" })")
            }
            try await setFaults(sandbox, "dropAfterMs=0")
            await session.close()

            // One subscription per connection: resubscribed each time (the server counts it as it reads it).
            await eventually(timeout: .seconds(30)) { try await tickerStats(sandbox).subscriptions >= 3 }
            #expect(try await tickerStats(sandbox).droppedByServer >= 2)
            #expect(log.reconnectReasons.first == .networkError(URLError(.networkConnectionLost)))
            // Each reconnect waited what the policy allows for its attempt number.
            for case .reconnecting(let attempt, let after, _) in log.states {
                #expect(Self.fast.delayRange(attempt: attempt - 1).contains(after))
            }
            // From the drop to connected again: at least the wait, at most the wait plus a local
            // handshake (with room for a loaded 2-core machine running every suite at once: 2.6 s
            // seen there; a reconnect stuck in its backoff would take the test's whole 10 s).
            let timed = log.timed
            for (index, entry) in timed.enumerated() {
                guard case .reconnecting(_, let after, _) = entry.0,
                    let next = timed[(index + 1)...].first(where: { $0.0 == .connected })
                else { continue }
                #expect(entry.1.duration(to: next.1) >= after)
                #expect(entry.1.duration(to: next.1) < after + .seconds(5))
            }
            #expect(log.states.last == .closed(nil))
        }
    }

    @Test("a silent server (no pongs) is detected within the heartbeat bound and re-dialled")
    func heartbeatDetectsSilence() async throws {
        try await withSandbox { sandbox in
            let interval = Duration.milliseconds(200)
            let client = WebSocketClient(configuration: .init(url: webSocketURL(sandbox, "/websocket/v1?interval=20"), pingInterval: interval))
            let session = WebSocketSession(client: client, reconnect: Self.fast) { connection throws(NetworkError) in
                try await connection.send(text: UpbitSubscription.ticker(codes: ["KRW-ETH"]))
            }
            let log = StateLog(session)
            await eventually { log.connections == 1 }
            try await setFaults(sandbox, "silent=1")
            let silencedAt = ContinuousClock.now
            await eventually { !log.reconnectReasons.isEmpty }
            let detected = log.timed.first { if case .reconnecting = $0.0 { true } else { false } }
            #expect(log.reconnectReasons.first == .webSocketError(.pingTimeout(seconds: 0.2)))
            // Noticed about two intervals after the silence, plus scheduling slack (1.66 s seen on
            // a loaded machine); without the heartbeat the silent socket would never end.
            if let detected { #expect(silencedAt.duration(to: detected.1) < interval * 2 + .seconds(3)) }
            try await setFaults(sandbox, "silent=0")
            await eventually { log.connections >= 2 }
            await session.close()
        }
    }

    @Test("refused handshakes back off: the waits, read off a test clock, follow the policy; then it connects")
    func refusedHandshakesBackOff() async throws {
        try await withSandbox { sandbox in
            try await setFaults(sandbox, "refuse=4")
            let clock = RecordingClock()
            let policy = ReconnectPolicy(initialDelay: .seconds(1), maxDelay: .seconds(5), multiplier: 2, jitter: 0.5)
            let client = WebSocketClient(configuration: .init(url: webSocketURL(sandbox, "/websocket/v1")))
            let session = WebSocketSession(client: client, reconnect: policy, clock: clock, random: { 0.5 })
            let log = StateLog(session)
            await eventually(timeout: .seconds(30)) { log.connections == 1 }  // five handshakes on a loaded machine
            #expect(clock.sleeps == [.milliseconds(750), .milliseconds(1500), .milliseconds(3000), .milliseconds(3750)])
            #expect(log.reconnectReasons == Array(repeating: .webSocketError(.handshakeRejected(status: nil)), count: 4))
            let stats = try await tickerStats(sandbox)
            #expect(stats.handshakes == 5)
            #expect(stats.refused == 4)
            await session.close()
        }
    }

    @Test("the policy's attempt limit ends the session with the last failure")
    func givesUp() async throws {
        try await withSandbox { sandbox in
            try await setFaults(sandbox, "refuse=100")
            let client = WebSocketClient(configuration: .init(url: webSocketURL(sandbox, "/websocket/v1")))
            let session = WebSocketSession(client: client, reconnect: ReconnectPolicy(maxAttempts: 2), clock: RecordingClock())
            await #expect(throws: NetworkError.webSocketError(.handshakeRejected(status: nil))) {
                for try await _ in session.messages {}
            }
            #expect(session.state == .closed(.webSocketError(.handshakeRejected(status: nil))))
            #expect(try await tickerStats(sandbox).handshakes == 3)
        }
    }

    @Test("the caller's close ends the session: no reconnect, the messages end")
    func callerCloseStops() async throws {
        try await withSandbox { sandbox in
            let session = Self.btcSession(sandbox)
            let log = StateLog(session)
            await eventually { log.connections == 1 }
            let reader = Task { () async throws(NetworkError) -> Int in
                var count = 0
                for try await _ in session.messages { count += 1 }
                return count
            }
            await eventually { try await tickerStats(sandbox).messagesSent >= 3 }
            await session.close()
            _ = try await reader.value  // ends, without an error
            await eventually { try await tickerStats(sandbox).open == 0 }
            try await Task.sleep(for: .milliseconds(300))
            let stats = try await tickerStats(sandbox)
            #expect(stats.opened == 1)
            #expect(log.states.last == .closed(nil))
            await #expect(throws: NetworkError.webSocketError(.notConnected)) { try await session.send(text: "x") }
        }
    }

    @Test("cancelling the reader closes the session and its socket; nothing re-dials")
    func cancelStops() async throws {
        try await withSandbox { sandbox in
            let session = Self.btcSession(sandbox)
            let reader = Task { () async throws(NetworkError) -> Int in
                var count = 0
                for try await _ in session.messages { count += 1 }
                return count
            }
            await eventually { try await tickerStats(sandbox).messagesSent >= 3 }
            reader.cancel()
            await #expect(throws: NetworkError.taskCancelled) { _ = try await reader.value }
            await eventually { try await tickerStats(sandbox).open == 0 }
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await tickerStats(sandbox).opened == 1)
            await eventually { session.state == .closed(nil) }
        }
    }

    @Test("a slow reader: .dropOldest keeps the newest messages and counts the drops; .suspend loses nothing")
    func buffering() async throws {
        try await withSandbox { sandbox in
            let ticker = WebSocketClient(configuration: .init(url: webSocketURL(sandbox, "/websocket/v1?interval=5")))
            let dropping = WebSocketSession(client: ticker, buffer: .dropOldest(limit: 8)) { connection throws(NetworkError) in
                try await connection.send(text: UpbitSubscription.ticker(codes: ["KRW-BTC", "KRW-ETH", "KRW-XRP"]))
            }
            await eventually { dropping.droppedMessages > 20 }
            var seqs: [Int64] = []
            var iterator = dropping.messages.makeAsyncIterator()
            for _ in 0..<8 {
                guard let message = try await iterator.next() else { break }
                let ticker = try JSONDecoder().decode(UpbitTicker.self, from: message.data)
                seqs.append(ticker.seq ?? -1)
            }
            #expect(seqs.count == 8)
            #expect(seqs.min()! > 3)  // the first ticks were dropped for newer ones
            await dropping.close()

            let echo = WebSocketClient(configuration: .init(url: webSocketURL(sandbox, "/ws/echo")))
            let suspending = WebSocketSession(client: echo, buffer: .suspend(limit: 4))
            await eventually { suspending.state == .connected }
            for index in 0..<200 { try await suspending.send(text: "m\(index)") }
            var received: [String] = []
            for try await message in suspending.messages {
                received.append(message.text ?? "")
                if received.count == 200 { break }
                if received.count % 50 == 0 { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(received == (0..<200).map { "m\($0)" })
            #expect(suspending.droppedMessages == 0)
            await suspending.close()
        }
    }
}
#endif  // WebSocket
