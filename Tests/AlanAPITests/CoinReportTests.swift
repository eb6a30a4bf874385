import AlanAPI
import Courier
import CourierConcurrency
import CourierSandbox
import CourierTesting
import Foundation
import IntegrationTestSupport
import Synchronization
import Testing

/// The coin report: three sections at once, revealed overview → weekly → today 350 ms apart,
/// each cancellable and retryable, every failure visible, the overview cached.
@Suite("Coin report")
struct CoinReportTests {
    struct Change: Sendable, Equatable, CustomStringConvertible {
        let section: CoinSection
        let state: String
        let atMs: Int
        var description: String { "\(section.rawValue):\(state)@\(atMs)" }
    }

    /// Records every change with the clock's time.
    final class Recording: Sendable {
        let clock = RecordingClock()
        let changes = Mutex<[Change]>([])
        let arrivals = Mutex<[CoinSection]>([])

        func onChange(_ section: CoinSection, _ snapshot: CoinReportSnapshot) {
            let offset = clock.now.offset
            let ms = Int(offset.components.seconds * 1000 + offset.components.attoseconds / 1_000_000_000_000_000)
            let change = Change(section: section, state: snapshot.stateName(of: section), atMs: ms)
            changes.withLock { $0.append(change) }
        }

        var finals: [Change] { changes.withLock { $0.filter { $0.state != "loading" } } }
    }

    /// A source around another that hands the answers over in `order`, whatever the load: each
    /// section fetches over the network at once, then waits for the sections before it in `order`.
    struct OrderedArrivals: CoinReportSource {
        let inner: any CoinReportSource
        let order: [CoinSection]
        let recording: Recording

        func arrive<T>(_ section: CoinSection, _ value: T) async throws -> T {
            let position = order.firstIndex(of: section) ?? 0
            while recording.arrivals.withLock({ $0.count }) < position { try await Task.sleep(for: .milliseconds(2)) }
            recording.arrivals.withLock { $0.append(section) }
            return value
        }
        func overview(for coin: Coin) async throws -> CoinOverview { try await arrive(.overview, inner.overview(for: coin)) }
        func weekly(for coin: Coin) async throws -> CoinWeekly { try await arrive(.weekly, inner.weekly(for: coin)) }
        func today(for coin: Coin) async throws -> CoinTodayNews { try await arrive(.today, inner.today(for: coin)) }
    }

    /// A source whose weekly section fails with an error that is not a NetworkError.
    struct BrokenWeekly: CoinReportSource {
        struct ParserCrash: Error {}
        let inner: any CoinReportSource
        func overview(for coin: Coin) async throws -> CoinOverview { try await inner.overview(for: coin) }
        func weekly(for coin: Coin) async throws -> CoinWeekly { throw ParserCrash() }
        func today(for coin: Coin) async throws -> CoinTodayNews { try await inner.today(for: coin) }
    }

    @Test(
        "sections answering in any order are revealed overview → weekly → today, 350 ms apart on the test clock",
        arguments: [[CoinSection.today, .weekly, .overview], [.weekly, .today, .overview], [.overview, .today, .weekly]])
    func revealOrder(_ arrivalOrder: [CoinSection]) async throws {
        try await withSandbox { sandbox throws in
            let recording = Recording()
            let source = OrderedArrivals(inner: alanClient(sandbox), order: arrivalOrder, recording: recording)
            let report = CoinReport(coin: Coin(symbol: "BTC"), source: source, clock: recording.clock, onChange: recording.onChange)
            await report.run()
            #expect(recording.arrivals.withLock { $0 } == arrivalOrder)
            #expect(
                recording.finals == [
                    Change(section: .overview, state: "success", atMs: 0),
                    Change(section: .weekly, state: "success", atMs: 350),
                    Change(section: .today, state: "success", atMs: 700),
                ])
            #expect(recording.clock.sleeps == [.milliseconds(350), .milliseconds(350)])
            #expect(report.snapshot.today.value?.articles.count == 3)
            let counters = try await stats(sandbox)
            #expect(counters.questions == 3)
        }
    }

    @Test("cancelling a loading section shows cancel(taskCancelled) at once; the others go on; retry fills it")
    func cancelAndRetry() async throws {
        try await withSandbox { sandbox throws in
            try await control(sandbox, .init(overviewMs: 0, weeklyMs: 30_000, todayMs: 0))
            let recording = Recording()
            let report = CoinReport(coin: Coin(symbol: "ETH"), source: alanClient(sandbox), clock: recording.clock, onChange: recording.onChange)
            await report.start()
            await eventually { report.snapshot.overview.isFinished }
            #expect(report.snapshot.weekly.isLoading)
            #expect(await report.cancel(.weekly))
            #expect(report.snapshot.weekly == .cancel(.taskCancelled))
            await report.waitUntilRevealed()
            #expect(report.snapshot.today.value?.articles.count == 3)
            #expect(!(await report.cancel(.weekly)))  // nothing in flight any more

            try await control(sandbox, .init(weeklyMs: 0))
            #expect(await report.retryUnfinished() == [.weekly])
            #expect(report.snapshot.weekly.isLoading)
            await report.waitUntilRevealed()
            #expect(report.snapshot.weekly.value?.priceTrend.hasPrefix("이더리움의 가격은") == true)
            #expect(recording.finals.map(\.description).prefix(3) == ["overview:success@0", "weekly:cancel(taskCancelled)@0", "today:success@350"])
        }
    }

    @Test("a failure that is not a NetworkError, and a model refusal, end in .failure, not loading")
    func nonNetworkFailure() async throws {
        try await withSandbox { sandbox throws in
            let recording = Recording()
            let report = CoinReport(
                coin: Coin(symbol: "BTC"), source: BrokenWeekly(inner: alanClient(sandbox)),
                clock: recording.clock, onChange: recording.onChange)
            await report.run()
            #expect(report.snapshot.weekly.isFailure)
            #expect(report.snapshot.overview.value != nil && report.snapshot.today.value != nil)

            try await control(sandbox, .init(quota: 2))  // overview and today used it up
            await report.retry(.today)
            await report.waitUntilRevealed()
            #expect(report.snapshot.today == .failure(.quotaExceeded(401)))
            #expect(!CoinSection.allCases.contains { report.snapshot.isLoading($0) })
        }
    }

    @Test("a fresh cached overview makes no request; a day-old one is fetched again")
    func overviewCache() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("alan-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try await withSandbox { sandbox throws in
            let alan = alanClient(sandbox)
            let cache = FileCoinOverviewCache(directory: directory)
            let first = CoinReport(coin: Coin(symbol: "BTC"), source: alan, cache: cache, clock: RecordingClock())
            await first.run()
            #expect(!first.overviewFromCache)
            #expect(try await stats(sandbox).questions == 3)

            let second = CoinReport(coin: Coin(symbol: "BTC"), source: alan, cache: cache, clock: RecordingClock())
            await second.run()
            #expect(second.overviewFromCache)
            #expect(second.snapshot.overview.value == first.snapshot.overview.value)
            #expect(try await stats(sandbox).questions == 5)  // weekly and today only

            let tomorrow = FileCoinOverviewCache(directory: directory, now: { Date().addingTimeInterval(25 * 60 * 60) })
            #expect(tomorrow.overview(for: Coin(symbol: "BTC")) == nil)
            #expect(cache.overview(for: Coin(symbol: "ETH")) == nil)
        }
    }

    @Test("the cache lives in XDG_CACHE_HOME, else ~/.cache")
    func cacheDirectory() {
        #expect(
            FileCoinOverviewCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "/tmp/xdg", "HOME": "/home/u"]).path
                == "/tmp/xdg/courier/alan-overview")
        #expect(FileCoinOverviewCache.defaultDirectory(environment: ["HOME": "/home/u"]).path == "/home/u/.cache/courier/alan-overview")
        #expect(
            FileCoinOverviewCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/home/u"]).path
                == "/home/u/.cache/courier/alan-overview")
    }
}
