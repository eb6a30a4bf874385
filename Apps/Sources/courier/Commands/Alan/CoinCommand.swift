import AlanAPI
import ArgumentParser
import Courier
import CourierCache
import CourierConcurrency
import CourierSandbox
import Foundation
import Synchronization

/// `courier coin …`: the coin app of seeds 000/002 in the terminal.
struct CoinCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coin",
        abstract: "A coin report (three sections written by the Alan LLM, revealed top-down) and live prices.",
        subcommands: [CoinReportCommand.self, CoinTickerCommand.self]
    )
}

/// `courier coin report SYMBOL`.
struct CoinReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Overview, weekly trend and today's mood with three news for a coin, asked at once, revealed 350 ms apart.",
        discussion: """
            In a terminal each section shows a spinner and they fill top-down (overview → weekly → today), each \
            appearing at its first streamed tokens and filling in field by field as the answer arrives; \
            keys 1/2/3 cancel a loading section, r retries the cancelled or failed ones, q quits. Piped, or \
            with --json, it prints one JSON object {"overview": {...}|{"error": {...}}, "weekly": …, "today": …} \
            with the seed DTOs' field names. --timeline prints one line per state change: elapsed ms, section, state.
            The overview is cached for a day in the HTTP disk cache in $XDG_CACHE_HOME/courier/alan (or ~/.cache/…); --no-cache skips it.
            The key is that of the coin-report task: --client-id-file PATH, --client-id (visible in `ps`), $ALAN_CLIENT_ID_COIN_REPORT or $ALAN_CLIENT_ID.
            With --json or --timeline the exit code is 0 when all three succeed, else that of the first failure.
            --open N then opens today's N-th news article in $BROWSER (else xdg-open/open) — in a terminal when you \
            quit with q — only an http(s) link: another is refused (exit 15, nothing opened); no article N, or no \
            today section, exits with 1 (or the section's failure code).
            Example: courier coin report BTC --sandbox
            Example: courier coin report ETH --sandbox --open 2
            Example: courier coin report ETH --sandbox --sandbox-latency 600,8000,80   (time to cancel the weekly section)
            \(ExitCodes.help)
            """
    )

    @Argument(help: "The coin's symbol, e.g. BTC, ETH, XRP.") var symbol: String
    @Flag(name: .long, help: "Print one JSON object (also the default when stdout is not a terminal).") var json = false
    @Flag(name: .long, help: "Print one line per state change: elapsed ms, section, state.") var timeline = false
    @Flag(name: .long, help: "Do not read or write the overview cache.") var noCache = false
    @Option(name: .long, help: "With --sandbox: the stand-in's time per section in ms, overview,weekly,today.") var sandboxLatency: String =
        "600,150,80"
    @Option(
        name: .long, help: "With --sandbox: the stand-in's pause between tokens in ms (default: 20 on a terminal, where sections stream in; else 0).")
    var sandboxTokenDelay: Int?
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Then open today's N-th news article in $BROWSER (else xdg-open/open); only http(s) links are opened.", valueName: "N"))
    var open: Int?
    @OptionGroup var options: AlanOptions

    func validate() throws {
        if let open, !(1...100).contains(open) { throw ValidationError("--open takes an article number from 1, e.g. --open 1") }
        guard !symbol.isEmpty, symbol.allSatisfy({ $0.isLetter || $0.isNumber }), symbol.count <= 12 else {
            throw ValidationError("the symbol must be 1…12 letters or digits, e.g. BTC")
        }
        _ = try latencies()
        if let delay = sandboxTokenDelay, !(0...10_000).contains(delay) {
            throw ValidationError("--sandbox-token-delay must be 0…10000 ms")
        }
    }

    func latencies() throws -> [Int] {
        let parts = sandboxLatency.split(separator: ",", omittingEmptySubsequences: false)
        let values = parts.compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 3, values.count == 3, values.allSatisfy({ (0...120_000).contains($0) }) else {
            throw ValidationError("--sandbox-latency must be three numbers 0…120000, e.g. 600,150,80")
        }
        return values
    }

    /// The overview cache: a stored response in the shared HTTP disk cache's folder
    /// (`$XDG_CACHE_HOME/courier/alan`, its `sandbox` subfolder for the stand-in), so it has that
    /// store's guarantees (atomic writes, damaged entry = miss, processes may share it, bounded).
    func overviewCache() -> StorageCoinOverviewCache? {
        let folder = DiskCacheStorage.defaultDirectory(named: "alan")
        do {
            return StorageCoinOverviewCache(
                storage: try DiskCacheStorage(directory: options.sandbox ? folder.appendingPathComponent("sandbox") : folder))
        } catch {
            Terminal.error("(no overview cache: cannot use \(folder.path): \(error.localizedDescription))")
            return nil
        }
    }

    func run() async throws {
        let coin = Coin(symbol: symbol)
        let latency = try latencies()
        let interactive = !json && !timeline && CoinReportTerminal.isInteractive
        let settings = AlanSandboxControl.Settings(
            overviewMs: latency[0], weeklyMs: latency[1], todayMs: latency[2], tokenDelayMs: sandboxTokenDelay ?? (interactive ? 20 : 0))
        var failure: NetworkError?
        var today = FetchState<CoinTodayNews>.loading
        try await options.withClient(task: .coinReport, settings: settings) { alan, _ in
            // Fail early, as the client would for each section, when the key is missing.
            _ = try alan.clientIDs.clientID(for: .coinReport)
            let cache = noCache ? nil : overviewCache()
            if interactive {
                today = try await CoinReportTerminal(coin: coin, opening: open).run(source: alan, cache: cache).today
                return
            }
            let start = ContinuousClock.now
            let printTimeline = timeline
            let report = CoinReport(coin: coin, source: alan, cache: cache) { section, snapshot in
                guard printTimeline else { return }
                let elapsed = ContinuousClock.now - start
                let ms = elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
                Terminal.output(CoinReportJSON.timelineLine(ms: Int(ms), section: section, state: snapshot.stateName(of: section)))
            }
            await report.run()
            if json || !timeline { Terminal.outputJSON(try CoinReportJSON.encode(report.snapshot)) }
            if timeline, report.overviewFromCache { Terminal.error("(overview from the cache: no request)") }
            failure = CoinSection.allCases.lazy.compactMap { report.snapshot.error(of: $0) }.first
            today = report.snapshot.today
        }
        if let open { try await Self.openArticle(open, of: today) }
        if let failure { throw ExitCode(ExitCodes.code(for: failure.family)) }
    }

    /// Opens article `number` (1-based) of today's section through the one ``LinkOpener``; a
    /// section that did not load ends with its failure's code, a missing article with 1.
    static func openArticle(_ number: Int, of today: FetchState<CoinTodayNews>) async throws {
        guard let news = today.value else {
            Terminal.error("✗ not opened: today's section did not load (\(today.error.map { "\($0)" } ?? "still loading"))")
            throw ExitCode(today.error.map { ExitCodes.code(for: $0.family) } ?? ExitCodes.failure)
        }
        let link = news.articles.indices.contains(number - 1) ? news.articles[number - 1].newsSourceURL : nil
        try await LinkOpener.open(
            link?.trimmingCharacters(in: .whitespacesAndNewlines),
            missing: "today's section has \(news.articles.count) news article\(news.articles.count == 1 ? "" : "s"), no article \(number)")
    }
}
