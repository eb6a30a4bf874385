import AlanAPI
import ArgumentParser
import Courier
import CourierSandbox
import CourierWebSocket
import Foundation
import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// `courier coin ticker KRW-BTC [KRW-ETH …]`: live prices over a WebSocket that stays connected.
struct CoinTickerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ticker",
        abstract: "Live prices from an Upbit-style WebSocket ticker; reconnects with backoff and resubscribes.",
        discussion: """
            In a terminal: one line per code, updated in place (rises red, falls blue, as on Korean \
            exchanges) and the connection's state underneath, reconnect attempts included. Piped: one \
            line per tick. --json: one JSON object per tick per line (Upbit's field names); state \
            changes go to stderr. A tick is never shown twice, also across reconnects.
            Example: courier coin ticker KRW-BTC KRW-ETH --sandbox
            Example: courier coin ticker KRW-BTC --sandbox --sandbox-drop-ms 2000   (watch it reconnect)
            Example: courier coin ticker KRW-BTC --count 5 --json
            \(ExitCodes.help)
            """
    )

    @Argument(help: "Market codes, e.g. KRW-BTC KRW-ETH.") var codes: [String]
    @Option(name: .long, help: "Stop after this many ticks (all codes together).") var count: Int?
    @Flag(name: .long, help: "One JSON object per tick per line.") var json = false
    @Option(name: .long, help: "The WebSocket endpoint.") var baseURL: String = UpbitTickerFeed.upbitURL.absoluteString
    @Flag(name: .long, help: "Start the sandbox in-process and use its ticker stand-in (no network).") var sandbox = false
    @Option(name: .long, help: "With --sandbox: ms between ticks.") var sandboxInterval: Int = 500
    @Option(name: .long, help: "With --sandbox: the stand-in drops each connection after this many ms (0: never).") var sandboxDropMs: Int = 0
    @Option(name: .long, help: "Heartbeat: seconds between pings (a dead connection is noticed within two).") var ping: Double = 10
    @Option(name: .long, help: "Give up after this many failed attempts in a row.") var maxAttempts: Int = 10

    func validate() throws {
        guard !codes.isEmpty, codes.allSatisfy({ $0.range(of: #"^[A-Za-z]{3,4}-[A-Za-z0-9]{1,12}$"#, options: .regularExpression) != nil }) else {
            throw ValidationError("codes look like KRW-BTC")
        }
        if let count, count < 1 { throw ValidationError("--count must be at least 1") }
        guard (5...60_000).contains(sandboxInterval), (0...3_600_000).contains(sandboxDropMs) else {
            throw ValidationError("--sandbox-interval must be 5…60000 and --sandbox-drop-ms 0…3600000")
        }
        guard ping >= 0.05, ping <= 3600, maxAttempts >= 0 else { throw ValidationError("--ping must be 0.05–3600 and --max-attempts at least 0") }
        if !sandbox {
            guard let url = URL(string: baseURL), ["ws", "wss"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
                throw ValidationError("--base-url must be a ws:// or wss:// URL")
            }
        }
    }

    func run() async throws {
        let upper = codes.map { $0.uppercased() }
        var running: RunningSandbox?
        var url = URL(string: baseURL) ?? UpbitTickerFeed.upbitURL
        if sandbox {
            let started = try await SandboxServer.start()
            running = started
            url = URL(string: "ws://\(started.host):\(started.port)/websocket/v1?interval=\(sandboxInterval)")!
            if sandboxDropMs > 0 {
                _ = try await NetworkClient().response(TickerFaults(baseURL: started.baseURL, knobs: ["dropAfterMs": sandboxDropMs]))
            }
        }
        var logger = Logger(label: "courier.ticker")
        logger.logLevel = .critical  // states are shown by the command itself
        let feed = UpbitTickerFeed(
            url: url, codes: upper, pingInterval: .milliseconds(Int(ping * 1000)),
            reconnect: ReconnectPolicy(initialDelay: .milliseconds(250), maxDelay: .seconds(10), maxAttempts: maxAttempts),
            logger: logger)
        let interactive = !json && isatty(STDOUT_FILENO) == 1
        let failure = await show(feed, codes: upper, interactive: interactive)
        await feed.close()
        await running?.stop()
        if let failure {
            Terminal.error("✗ \(failure.userMessage(in: .preferred).replacingOccurrences(of: "\n", with: " ")) (\(failure))")
            throw ExitCode(ExitCodes.code(for: failure.family))
        }
    }

    /// Prints ticks until `--count` or the end; returns the failure that ended it, if any.
    private func show(_ feed: UpbitTickerFeed, codes: [String], interactive: Bool) async -> NetworkError? {
        let screen = interactive ? TickerScreenBox(codes: codes) : nil
        let states = Task { [json] in
            for await state in feed.session.states {
                if let screen {
                    screen.update { $0.status = CoinTickerScreen.status(state) }
                } else if json || state != .connected {
                    Terminal.error(CoinTickerScreen.status(state))
                }
            }
        }
        defer { states.cancel() }
        screen?.update { _ in }
        var shown = 0
        do {
            for try await ticker in feed.tickers {
                if json {
                    Terminal.outputJSON(Self.jsonLine(ticker))
                } else if let screen {
                    screen.update { $0.latest[ticker.code] = ticker }
                } else {
                    Terminal.output(CoinTickerScreen.line(ticker, colour: false))
                }
                shown += 1
                if let count, shown >= count { break }
            }
            return nil
        } catch {
            return error
        }
    }

    static func jsonLine(_ ticker: UpbitTicker) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(ticker)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}

/// The interactive screen, shared by the tick loop and the state watcher; redrawn on each change.
final class TickerScreenBox: Sendable {
    private let screen: Mutex<CoinTickerScreen>

    init(codes: [String]) {
        screen = Mutex(CoinTickerScreen(codes: codes))
    }

    func update(_ change: (inout CoinTickerScreen) -> Void) {
        let text = screen.withLock { screen in
            change(&screen)
            return screen.render()
        }
        Terminal.write(text, to: STDOUT_FILENO)
    }
}

/// `POST /ticker/faults?…` on the in-process sandbox: the ticker stand-in's fault knobs.
struct TickerFaults: Endpoint {
    let baseURL: URL
    let knobs: RequestParameters
    var path: String { "/ticker/faults" }
    var method: HTTPMethod { .post }
    var task: HTTPTask { .requestParameters(knobs, encoding: .url) }
}
