import AlanAPI
import Courier
import CourierSandbox
import CourierWebSocket
import Foundation
import Logging
import NIOCore
import NIOPosix
import Synchronization
import WSClient

// CourierWebSocket against raw swift-websocket (WSClient) on the same server (the in-process
// sandbox on its own event loop), side by side in one run, printing ratios. Run with
// `swift run -c release WebSocketBenchmark [echo|stream|reconnect …]` (default: all three).
//
// - echo: sequential round trips of a 32-byte text message (send, wait for the echo); round trips
//   per second in interleaved rounds; the verdict is the median of the rounds' ratios (goal ≥ 0.9×
//   raw WSClient).
// - stream: 1 KB binary messages, sent back to back while the echoes are read; messages per
//   second (goal ≥ 0.9×).
// - reconnect: a session on the ticker stand-in that drops every connection after 100 ms; time
//   from the drop being noticed to connected again (p50, p99), with the backoff wait shown apart.

@main
struct WebSocketBenchmark {
    static func main() async throws {
        try await run()
    }

    nonisolated static func run() async throws {
        let which = Set(CommandLine.arguments.dropFirst())
        func wanted(_ name: String) -> Bool { which.isEmpty || which.contains(name) }
        var options = SandboxServer.Options()
        options.eventLoopGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let sandbox = try await SandboxServer.start(options: options)
        let echo = "ws://\(sandbox.host):\(sandbox.port)/ws/echo"
        var logger = Logger(label: "bench")
        logger.logLevel = .critical

        if wanted("echo") {
            let count = 4000
            let text = String(repeating: "x", count: 32)
            say("echo: \(count) sequential round trips of 32 bytes per round, 7 rounds interleaved")
            let rates = try await interleaved(rounds: 7) { raw throws -> Double in
                raw ? try await rawEcho(echo, count: count, text: text, logger: logger) : try await courierEcho(echo, count: count, text: text)
            }
            report("round trips/s", rates)
        }

        if wanted("stream") {
            let count = 20_000
            let payload = ByteBuffer(repeating: 0x5A, count: 1024)
            say("stream: \(count) messages of 1 KB sent back to back while the echoes are read, 7 rounds interleaved")
            let rates = try await interleaved(rounds: 7) { raw throws -> Double in
                raw
                    ? try await rawStream(echo, count: count, payload: payload, logger: logger)
                    : try await courierStream(echo, count: count, payload: payload)
            }
            report("messages/s", rates)
        }

        if wanted("reconnect") {
            try await reconnect(sandbox)
        }
        await sandbox.stop()
    }

    /// Runs `body(raw)` alternately for raw WSClient and Courier; returns each one's rates.
    static func interleaved(rounds: Int, _ body: (Bool) async throws -> Double) async throws -> (raw: [Double], courier: [Double]) {
        _ = try await body(true)  // warm-up
        _ = try await body(false)
        var raw: [Double] = []
        var courier: [Double] = []
        for round in 0..<rounds {
            if round % 2 == 0 {
                raw.append(try await body(true))
                courier.append(try await body(false))
            } else {
                courier.append(try await body(false))
                raw.append(try await body(true))
            }
        }
        return (raw, courier)
    }

    static func report(_ unit: String, _ rates: (raw: [Double], courier: [Double])) {
        let raw = median(rates.raw)
        let courier = median(rates.courier)
        // Each round measures both back to back, so a round's ratio cancels the machine's drift
        // between rounds (a loaded 2-core VM swings 2× from round to round); the verdict is the
        // median of those ratios, as CourierBenchmarks does.
        let paired = median(zip(rates.courier, rates.raw).map { $0 / $1 })
        say("  raw WSClient                 \(format(raw)) \(unit)")
        say("  CourierWebSocket             \(format(courier)) \(unit)   \(String(format: "%.3f", courier / raw))× of the medians")
        say("  median of the rounds' ratios \(String(format: "%.3f", paired))×  goal ≥ 0.9× \(paired >= 0.9 ? "✓" : "✗")")
        say("  rounds raw: \(rates.raw.map(format).joined(separator: " "))")
        say("  rounds Courier: \(rates.courier.map(format).joined(separator: " "))")
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }

    static func format(_ value: Double) -> String { String(format: "%9.0f", value) }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    // MARK: echo

    static func rawEcho(_ url: String, count: Int, text: String, logger: Logger) async throws -> Double {
        let elapsed = Mutex<Duration>(.zero)
        try await WSClient.WebSocketClient.connect(url: url, logger: logger) { inbound, outbound, _ in
            var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
            let start = ContinuousClock.now
            for _ in 0..<count {
                try await outbound.write(.text(text))
                _ = try await messages.next()
            }
            elapsed.withLock { $0 = start.duration(to: .now) }
        }
        return Double(count) / seconds(elapsed.withLock { $0 })
    }

    static func courierEcho(_ url: String, count: Int, text: String) async throws -> Double {
        let connection = try await WebSocketClient(configuration: .init(url: URL(string: url)!)).connect()
        var messages = connection.messages.makeAsyncIterator()
        let start = ContinuousClock.now
        for _ in 0..<count {
            try await connection.send(text: text)
            _ = try await messages.next()
        }
        let elapsed = start.duration(to: .now)
        await connection.close()
        return Double(count) / seconds(elapsed)
    }

    // MARK: stream

    static func rawStream(_ url: String, count: Int, payload: ByteBuffer, logger: Logger) async throws -> Double {
        let elapsed = Mutex<Duration>(.zero)
        try await WSClient.WebSocketClient.connect(url: url, logger: logger) { inbound, outbound, _ in
            let start = ContinuousClock.now
            async let sent: Void = {
                for _ in 0..<count { try await outbound.write(.binary(payload)) }
            }()
            var received = 0
            for try await _ in inbound.messages(maxSize: 1 << 20) {
                received += 1
                if received == count { break }
            }
            try await sent
            elapsed.withLock { $0 = start.duration(to: .now) }
        }
        return Double(count) / seconds(elapsed.withLock { $0 })
    }

    static func courierStream(_ url: String, count: Int, payload: ByteBuffer) async throws -> Double {
        let connection = try await WebSocketClient(configuration: .init(url: URL(string: url)!)).connect()
        let data = Data(payload.readableBytesView)
        let start = ContinuousClock.now
        async let sent: Void = {
            for _ in 0..<count { try await connection.send(data: data) }
        }()
        var received = 0
        for try await _ in connection.messages {
            received += 1
            if received == count { break }
        }
        try await sent
        let elapsed = start.duration(to: .now)
        await connection.close()
        return Double(count) / seconds(elapsed)
    }

    // MARK: reconnect

    static func reconnect(_ sandbox: RunningSandbox) async throws {
        let drops = 60
        let policy = ReconnectPolicy(initialDelay: .milliseconds(20), maxDelay: .milliseconds(20), jitter: 0, resetAfter: .milliseconds(50))
        say(
            "reconnect: the stand-in drops every connection 100 ms after its subscription; \(drops) reconnects; backoff \(policy.initialDelay) (no jitter)"
        )
        _ = try await NetworkClient().response(TickerFaults(baseURL: sandbox.baseURL))
        let url = URL(string: "ws://\(sandbox.host):\(sandbox.port)/websocket/v1?interval=20")!
        var quiet = Logger(label: "bench")
        quiet.logLevel = .critical
        // Nobody reads the ticks here: keep only the newest (a suspended reader would stop the socket being read).
        let client = WebSocketClient(configuration: .init(url: url), logger: quiet)
        let session = WebSocketSession(client: client, reconnect: policy, buffer: .dropOldest(limit: 16)) { connection throws(NetworkError) in
            try await connection.send(text: UpbitSubscription.ticker(codes: ["KRW-BTC"]))
        }
        var noticed: ContinuousClock.Instant?
        var gaps: [Double] = []
        for await state in session.states {
            switch state {
            case .reconnecting: noticed = .now
            case .connected:
                if let noticed { gaps.append(seconds(noticed.duration(to: .now)) * 1000) }
                noticed = nil
            default: break
            }
            if gaps.count == drops { break }
        }
        await session.close()
        _ = try await NetworkClient().response(TickerFaults(baseURL: sandbox.baseURL, dropAfterMs: 0))
        let sorted = gaps.sorted()
        let p50 = sorted[sorted.count / 2]
        let p99 = sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]
        say(
            String(
                format:
                    "  noticed → connected again: p50 %.1f ms, p99 %.1f ms (of which the backoff wait: 20 ms); handshake + resubscribe alone: p50 %.1f ms, p99 %.1f ms",
                p50, p99, p50 - 20, p99 - 20))
    }
}

/// `POST /ticker/faults?dropAfterMs=` on the sandbox.
struct TickerFaults: Endpoint {
    let baseURL: URL
    var dropAfterMs = 100
    var path: String { "/ticker/faults" }
    var method: HTTPMethod { .post }
    var task: HTTPTask { .requestParameters(["dropAfterMs": dropAfterMs], encoding: .url) }
}

/// Prints a line at once (stdout to a pipe is otherwise block-buffered).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
