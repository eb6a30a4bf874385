import AlanAPI
import Courier
import CourierWebSocket
import Foundation
import Logging

/// The WebSocket part of `courier demo`: the coin app's live ticker on the sandbox's Upbit-style
/// stand-in — ticks, a dropped connection re-dialled and resubscribed without a repeated tick, a
/// silent server caught by the heartbeat, and the errors a WebSocket can end with.
enum WebSocketDemo {
    static func run(baseURL: URL, output: @escaping @Sendable (String) -> Void) async -> (steps: Int, failures: Int) {
        output("\n── CourierWebSocket: the coin app's live ticker (Upbit format, stand-in at /websocket/v1) ──")
        var failures = 0
        func check(_ ok: Bool, _ line: String) {
            if !ok { failures += 1 }
            output("\(ok ? "✓" : "✗") \(line)")
        }
        let host = baseURL.host ?? "127.0.0.1"
        let port = baseURL.port ?? 80
        func url(_ path: String) -> URL { URL(string: "ws://\(host):\(port)\(path)")! }
        var quiet = Logger(label: "courier.demo.ws")
        quiet.logLevel = .critical
        let control = NetworkClient()
        let clock = ContinuousClock()
        do {
            // 1. Live ticks.
            let feed = UpbitTickerFeed(url: url("/websocket/v1?interval=50"), codes: ["KRW-BTC", "KRW-ETH"], logger: quiet)
            var ticks: [UpbitTicker] = []
            for try await ticker in feed.tickers {
                ticks.append(ticker)
                if ticks.count == 6 { break }
            }
            await feed.close()
            check(ticks.count == 6, "6 ticks for KRW-BTC and KRW-ETH (a snapshot each, then one per code every 50 ms):")
            for ticker in ticks.prefix(4) { output("    " + CoinTickerScreen.line(ticker, colour: false) + "  seq \(ticker.seq ?? -1)") }

            // 2. Drops: re-dialled with backoff, resubscribed, no tick twice.
            _ = try await control.response(TickerFaults(baseURL: baseURL, knobs: ["dropAfterMs": 250]), validatingStatus: false)
            let dropping = UpbitTickerFeed(
                url: url("/websocket/v1?interval=1000"), codes: ["KRW-BTC"],
                reconnect: ReconnectPolicy(initialDelay: .milliseconds(50), maxDelay: .milliseconds(200)), logger: quiet)
            let states = Task {
                var reconnects: [Duration] = []
                var noticed: ContinuousClock.Instant?
                for await state in dropping.session.states {
                    if case .reconnecting = state { noticed = .now }
                    if state == .connected, let start = noticed { reconnects.append(start.duration(to: .now)) }
                    if reconnects.count == 3 { break }
                }
                return reconnects
            }
            let reader = Task { () async throws(NetworkError) -> [UpbitTicker] in
                var seen: [UpbitTicker] = []
                for try await ticker in dropping.tickers { seen.append(ticker) }
                return seen
            }
            let reconnects = await states.value
            await dropping.close()
            let delivered = try await reader.value
            _ = try await control.response(TickerFaults(baseURL: baseURL, knobs: ["dropAfterMs": 0]), validatingStatus: false)
            let seqs = delivered.compactMap(\.seq)
            check(
                reconnects.count == 3 && Set(seqs).count == seqs.count,
                "dropped every 250 ms: 3 reconnects in \(reconnects.map { "\(ms($0)) ms" }.joined(separator: ", ")) (backoff 50 ms …), resubscribed each time; ticks shown: \(seqs.map(String.init).joined(separator: " ")) — a snapshot that repeats a tick already shown is dropped"
            )

            // 3. Heartbeat.
            var configuration = WebSocketConfiguration(url: url("/websocket/v1?interval=50"), pingInterval: .milliseconds(200))
            configuration.closeTimeout = .seconds(1)
            let connection = try await WebSocketClient(configuration: configuration, logger: quiet).connect()
            try await connection.send(text: UpbitSubscription.ticker(codes: ["KRW-XRP"]))
            _ = try await control.response(TickerFaults(baseURL: baseURL, knobs: ["silent": 1]), validatingStatus: false)
            let silentAt = clock.now
            var ending: NetworkError?
            do { for try await _ in connection.messages {} } catch { ending = error }
            _ = try await control.response(TickerFaults(baseURL: baseURL, knobs: ["silent": 0]), validatingStatus: false)
            check(
                ending == .webSocketError(.pingTimeout(seconds: 0.2)),
                "a server that stops answering pings: \(ending.map { "\($0)" } ?? "no error") after \(ms(silentAt.duration(to: clock.now))) ms (ping every 200 ms: noticed within two)"
            )

            // 4. Errors.
            _ = try await control.response(TickerFaults(baseURL: baseURL, knobs: ["refuse": 1]), validatingStatus: false)
            var refused: NetworkError?
            do { _ = try await WebSocketClient(configuration: .init(url: url("/websocket/v1")), logger: quiet).connect() } catch { refused = error }
            check(
                refused == .webSocketError(.handshakeRejected(status: nil)), "a refused handshake (503) → \(refused.map { "\($0)" } ?? "connected")")

            _ = try await control.response(TickerFaults(baseURL: baseURL, knobs: ["malformed": 1, "malformedKind": "utf8"]), validatingStatus: false)
            let malformed = try await WebSocketClient(configuration: .init(url: url("/websocket/v1?interval=1000")), logger: quiet).connect()
            try await malformed.send(text: UpbitSubscription.ticker(codes: ["KRW-BTC"]))
            var bad: NetworkError?
            do { for try await _ in malformed.messages {} } catch { bad = error }
            check(
                bad == .webSocketError(.protocolViolation(code: 1007)),
                "a text frame that is not UTF-8 → \(bad.map { "\($0)" } ?? "no error"), not a crash")
        } catch {
            failures += 1
            output("✗ WebSocket → \(NetworkError(error).log(file: "WebSocketDemo.swift", function: "run"))")
        }
        return (5, failures)
    }

    static func ms(_ duration: Duration) -> Int {
        Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }
}
