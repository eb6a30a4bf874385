import AlanAPI
import Courier
import CourierConcurrency
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `courier coin report` in a terminal: a spinner per section, sections filling top-down as
/// they are revealed — each at its first streamed tokens, its fields then filling in as the
/// answer arrives — keys 1/2/3 to cancel, r to retry, q to quit. The screen is redrawn in place
/// from background tasks (at most every ``CoinReportScreen/redrawInterval``), so everything here
/// is nonisolated and lock-protected.
struct CoinReportTerminal {
    let coin: Coin
    /// The news article `--open` opens once the screen is left (the status line says so).
    var opening: Int? = nil

    /// stdout and stdin are both terminals.
    static var isInteractive: Bool { isatty(STDOUT_FILENO) == 1 && isatty(STDIN_FILENO) == 1 }

    /// Runs the screen until q (or the end of input); returns where the sections stood then.
    @discardableResult
    func run(source: any CoinReportSource, cache: (any CoinOverviewCache)?) async throws -> CoinReportSnapshot {
        let screen = CoinReportScreen(coin: coin)
        if let opening { screen.setStatus("키: 1/2/3 섹션 취소 · r 다시 시도 · q 종료 (종료하면 \(opening)번 기사를 열어요)", draw: false) }
        let report = CoinReport(coin: coin, source: source, cache: cache, streaming: true) { _, snapshot in screen.update(snapshot) }
        let terminal = RawTerminal()
        defer { terminal.restore() }
        screen.draw()
        await report.start()
        let spinner = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: CoinReportScreen.redrawInterval)
                screen.tick()
            }
        }
        defer { spinner.cancel() }
        for await key in terminal.keys() {
            switch key {
            case UInt8(ascii: "1"), UInt8(ascii: "2"), UInt8(ascii: "3"):
                let section = CoinSection.allCases[Int(key - UInt8(ascii: "1"))]
                let cancelled = await report.cancel(section)
                screen.setStatus(cancelled ? "[\(key - 48)] \(section.title) 취소됨 — r 로 다시 시도" : "[\(key - 48)] \(section.title): 진행 중인 요청이 없어요")
            case UInt8(ascii: "r"), UInt8(ascii: "R"):
                let retried = await report.retryUnfinished()
                screen.setStatus(retried.isEmpty ? "다시 시도할 섹션이 없어요" : "다시 시도: " + retried.map(\.title).joined(separator: ", "))
            case UInt8(ascii: "q"), UInt8(ascii: "Q"), 3, 4:
                await report.cancelAll()
                screen.finish()
                return report.snapshot
            default:
                continue
            }
        }
        await report.cancelAll()
        screen.finish()
        return report.snapshot
    }
}

/// The screen's state and its rendering.
final class CoinReportScreen: Sendable {
    private struct State {
        var snapshot = CoinReportSnapshot()
        var ticks = 0
        var status = "키: 1/2/3 섹션 취소 · r 다시 시도 · q 종료"
        var finished = false
        /// A change not drawn yet (changes come faster than the screen is redrawn).
        var dirty = false
        var lastDraw: ContinuousClock.Instant?
    }

    /// The shortest time between two redraws: a streamed answer changes the screen at every
    /// token, and a terminal redrawing a whole screen 100 times a second flickers.
    static let redrawInterval: Duration = .milliseconds(50)

    private let coin: Coin
    private let state = Mutex(State())
    static let spinner = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    init(coin: Coin) { self.coin = coin }

    /// Takes the new snapshot; redraws now unless the last redraw was under ``redrawInterval``
    /// ago (the next tick draws it then). A section's final state is drawn at once.
    func update(_ snapshot: CoinReportSnapshot) {
        let now = ContinuousClock.now
        let drawNow = state.withLock { state in
            let settled = CoinSection.allCases.contains { !snapshot.isLoading($0) && state.snapshot.isLoading($0) }
            state.snapshot = snapshot
            guard settled || state.lastDraw.map({ now - $0 >= Self.redrawInterval }) ?? true else {
                state.dirty = true
                return false
            }
            return true
        }
        if drawNow { draw() }
    }

    func tick() {
        let redraw = state.withLock { state in
            state.ticks += 1
            return state.dirty || (state.ticks % 2 == 0 && CoinSection.allCases.contains { state.snapshot.isLoading($0) })
        }
        if redraw { draw() }
    }

    func setStatus(_ text: String, draw redraw: Bool = true) {
        state.withLock { $0.status = text }
        if redraw { draw() }
    }

    func finish() {
        state.withLock { $0.finished = true }
        Terminal.write("\n", to: STDOUT_FILENO)
    }

    /// Redraws the whole screen in place.
    func draw() {
        state.withLock { state in
            guard !state.finished else { return }
            state.dirty = false
            state.lastDraw = .now
            Terminal.write("\u{1B}[H\u{1B}[2J" + render(state), to: STDOUT_FILENO)
        }
    }

    /// The whole screen, each line wrapped to the terminal's width in cells with its indent kept
    /// (the terminal's own wrap would cut a Korean word in two and start the rest at column 0).
    /// Everything the LLM or the server wrote is escaped (``TerminalText``) before it is put
    /// beside the screen's own escape sequences.
    private func render(_ state: State) -> String {
        let columns = Terminal.columns
        var lines: [String] = []
        func add(_ text: String, indent: String = "", continuation: String = "    ") {
            lines += TerminalText.wrap(text, width: columns, indent: indent, continuation: continuation)
        }
        add("\u{1B}[1m코인 리포트 · \(coin.koreanName) (\(coin.symbol))\u{1B}[0m")
        lines.append("")
        let spin = Self.spinner[(state.ticks / 2) % Self.spinner.count]
        for (index, section) in CoinSection.allCases.enumerated() {
            let head = "[\(index + 1)] \u{1B}[1m\(section.title)\u{1B}[0m"
            let snapshot = state.snapshot
            if snapshot.hasDraft(section) {
                add("\(head)  \(spin) 작성 중…")
                for line in draft(of: section, snapshot) {
                    add(line.text, indent: "    ", continuation: line.continuation)
                }
            } else if snapshot.isLoading(section) {
                add("\(head)  \(spin) 불러오는 중…")
            } else if let error = snapshot.error(of: section) {
                let mark = snapshot.isCancelled(section) ? "■ 취소됨" : "✕ 실패 \(TerminalText.escaped(String(describing: error)))"
                let message = TerminalText.escaped(error.userMessage(in: .korean).replacingOccurrences(of: "\n", with: " "))
                add("\(head)  \u{1B}[33m\(mark)\u{1B}[0m — \(message) (r: 다시 시도)")
            } else {
                add("\(head)  ✓")
                for line in body(of: section, snapshot) {
                    add(line.text, indent: "    ", continuation: line.continuation)
                }
            }
            lines.append("")
        }
        add("\u{1B}[2m\(state.status)\u{1B}[0m", continuation: "")
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// A section's lines (outside text escaped), each with the indent its wrapped lines continue at.
    private func body(of section: CoinSection, _ snapshot: CoinReportSnapshot) -> [(text: String, continuation: String)] {
        let safe: (String) -> String = { TerminalText.escaped($0) }
        let plain = "    "
        switch section {
        case .overview:
            guard let overview = snapshot.overview.value else { return [] }
            let site = overview.websiteURL.map { url in overview.websiteHost.map { link($0, url) } ?? safe(url) } ?? "-"
            return [("심볼 \(safe(overview.symbol)) · 웹사이트 \(site) · 최초 발행 \(safe(overview.launchDate))", plain), (safe(overview.description), plain)]
        case .weekly:
            guard let weekly = snapshot.weekly.value else { return [] }
            return [
                ("가격 추이: \(safe(weekly.priceTrend))", plain), ("거래량 변화: \(safe(weekly.volumeChange))", plain), ("원인: \(safe(weekly.reason))", plain),
            ]
        case .today:
            guard let today = snapshot.today.value else { return [] }
            // A news item's wrapped lines start under its text, not under the bullet.
            let mood: [(text: String, continuation: String)] = today.marketMood.map { [(Self.moodLine($0), plain)] } ?? []
            return mood + [(safe(today.summaryOfTodaysMarketSentiment), plain)]
                + today.articles.enumerated().map { index, article in
                    (
                        "\(index + 1). \(safe(article.title)) — \(safe(article.summary)) \(article.sourceHost.map { link($0, article.newsSourceURL) } ?? "")",
                        "       "
                    )
                }
        }
    }

    /// A revealed section still streaming: the fields written so far (outside text escaped),
    /// in the same layout as the finished section.
    private func draft(of section: CoinSection, _ snapshot: CoinReportSnapshot) -> [(text: String, continuation: String)] {
        let safe: (String?) -> String = { TerminalText.escaped($0 ?? "") }
        let plain = "    "
        switch section {
        case .overview:
            guard let overview = snapshot.overviewDraft else { return [] }
            var lines = [("심볼 \(safe(overview.symbol)) · 웹사이트 \(safe(overview.websiteURL)) · 최초 발행 \(safe(overview.launchDate))", plain)]
            if let description = overview.description { lines.append((safe(description), plain)) }
            return lines
        case .weekly:
            guard let weekly = snapshot.weeklyDraft else { return [] }
            var lines: [(text: String, continuation: String)] = []
            if let trend = weekly.priceTrend { lines.append(("가격 추이: \(safe(trend))", plain)) }
            if let volume = weekly.volumeChange { lines.append(("거래량 변화: \(safe(volume))", plain)) }
            if let reason = weekly.reason { lines.append(("원인: \(safe(reason))", plain)) }
            return lines
        case .today:
            guard let today = snapshot.todayDraft else { return [] }
            var lines: [(text: String, continuation: String)] = []
            if let mood = today.marketMood { lines.append((Self.moodLine(mood), plain)) }
            if let summary = today.summaryOfTodaysMarketSentiment { lines.append((safe(summary), plain)) }
            for (index, article) in (today.articles ?? []).enumerated() {
                lines.append(("\(index + 1). \(safe(article.title)) — \(safe(article.summary)) \(safe(article.newsSourceURL))", "       "))
            }
            return lines
        }
    }

    /// The mood as the app showed it: its label in a colour (green, yellow, red), then its line
    /// with the verdict in bold — `긍정적 · 전체적인 시장은 호재예요`. The text is the library's own, not the model's.
    static func moodLine(_ mood: MarketMood) -> String {
        let colour =
            switch mood {
            case .positive: "32"
            case .neutral: "33"
            case .negative: "31"
            }
        return "\u{1B}[1;\(colour)m\(mood.label)\u{1B}[0m · 전체적인 시장은 \u{1B}[1m\(mood.verdict)\u{1B}[0m예요"
    }

    /// The host, underlined, as a terminal hyperlink to the URL (the seed's AttributedString lesson).
    private func link(_ host: String, _ url: String) -> String {
        "\u{1B}[4m" + TerminalText.link(host, to: url) + "\u{1B}[24m"
    }
}
