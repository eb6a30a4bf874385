import Courier
import CourierConcurrency
import CourierLLM
import Foundation
public import Logging
import Synchronization

/// The coin report of seeds 000/002: overview, weekly trend and today's mood with three news,
/// requested at once and revealed top-down (overview → weekly → today) ``interval`` apart
/// through `OrderedReveal`. Each section is a `FetchState`, cancellable (it shows
/// `.cancel(.taskCancelled)` at once) and retryable on its own; every failure, network or not,
/// ends in `.failure` — never a section stuck loading. The overview comes from ``cache`` when it
/// holds a fresh one (no request), and is stored there after a fetch. With a `logger`, each
/// failure is logged once when it is shown, as the seed's `print(ne.log())`:
/// `quotaExceeded(401)-"AlanAPI/CoinReport.swift#weekly"` (the section after `#`; no key or
/// query in it).
///
/// ```swift
/// let report = CoinReport(coin: Coin(symbol: "BTC"), source: alan, cache: FileCoinOverviewCache(), logger: logger) { section, snapshot in
///     render(snapshot)   // called from background tasks: keep it nonisolated
/// }
/// await report.run()          // returns when all three are revealed or cancelled
/// await report.cancel(.weekly)
/// await report.retry(.weekly)
/// ```
public final class CoinReport<C: Clock>: Sendable where C.Duration == Duration {
    /// The coin.
    public let coin: Coin
    /// Where the overview is kept between runs, if anywhere.
    public let cache: (any CoinOverviewCache)?
    private let reveal: OrderedReveal<C>
    private let store: Store

    /// A report on `coin` from `source`, revealed `interval` apart on `clock`; `onChange` gets
    /// every state change (from background tasks).
    ///
    /// With `streaming`, each section is asked through the source's streaming methods and is
    /// revealed at its first partial value (in its turn, `interval` after the section above
    /// appeared); its fields then fill in (``CoinReportSnapshot/overviewDraft`` …) while its
    /// state stays `.loading`, until the final state replaces the draft. `FetchState` gains no
    /// case: the draft sits beside the state, so code that switches over the seed's four states
    /// keeps working.
    public init(
        coin: Coin, source: any CoinReportSource, cache: (any CoinOverviewCache)? = nil,
        interval: Duration = .milliseconds(350), clock: C, streaming: Bool = false, logger: Logger? = nil,
        onChange: @escaping @Sendable (CoinSection, CoinReportSnapshot) -> Void = { _, _ in }
    ) {
        self.coin = coin
        self.cache = cache
        let store = Store(onChange: onChange)
        self.store = store
        let overview = Self.section(
            .overview, store: store, state: \.overview, draft: \.overviewDraft,
            operation: { partial in
                if let cached = cache?.overview(for: coin) {
                    store.markCached(true)
                    return cached
                }
                store.markCached(false)
                let fresh = streaming ? try await source.overview(for: coin, partial: partial) : try await source.overview(for: coin)
                cache?.store(fresh, for: coin)
                return fresh
            })
        let weekly = Self.section(
            .weekly, store: store, state: \.weekly, draft: \.weeklyDraft,
            operation: { partial in streaming ? try await source.weekly(for: coin, partial: partial) : try await source.weekly(for: coin) })
        let today = Self.section(
            .today, store: store, state: \.today, draft: \.todayDraft,
            operation: { partial in streaming ? try await source.today(for: coin, partial: partial) : try await source.today(for: coin) })
        self.reveal = OrderedReveal(interval: interval, clock: clock, sections: [overview, weekly, today], logger: logger)
    }

    /// A section whose state and draft are at `state` and `draft` in the snapshot: the final
    /// state clears the draft; a partial answer becomes the draft.
    private static func section<Value: Sendable, Draft: Decodable & Sendable>(
        _ section: CoinSection, store: Store,
        state: any WritableKeyPath<CoinReportSnapshot, FetchState<Value>> & Sendable,
        draft: any WritableKeyPath<CoinReportSnapshot, Draft?> & Sendable,
        operation: @escaping @Sendable (_ partial: @escaping @Sendable (JSONSnapshot) async -> Void) async throws -> Value
    ) -> RevealSection {
        RevealSection(
            section.rawValue, operation: operation,
            update: { value in
                store.update(section) {
                    $0[keyPath: state] = value
                    $0[keyPath: draft] = nil
                }
            },
            partialUpdate: { (snapshot: JSONSnapshot) in
                let value = snapshot.decode(Draft.self).value
                store.update(section) { $0[keyPath: draft] = value }
            })
    }

    /// Where every section stands now.
    public var snapshot: CoinReportSnapshot { store.snapshot }

    /// Whether the last overview came from the cache (no request).
    public var overviewFromCache: Bool { store.overviewFromCache }

    /// The minimum time between two reveals.
    public var interval: Duration { reveal.interval }

    /// Starts the three requests at once and returns when each section is revealed or cancelled.
    public func run() async { await reveal.run() }

    /// Starts the three requests at once without waiting.
    public func start() async { await reveal.start() }

    /// Returns when no section is waiting to be revealed.
    public func waitUntilRevealed() async { await reveal.waitUntilRevealed() }

    /// Cancels `section` if it is loading: it shows `.cancel(.taskCancelled)` before this returns.
    @discardableResult
    public func cancel(_ section: CoinSection) async -> Bool { await reveal.cancel(section.rawValue) }

    /// Runs `section` again (loading, then its new result in its turn).
    @discardableResult
    public func retry(_ section: CoinSection) async -> Bool { await reveal.retry(section.rawValue) }

    /// Retries every cancelled or failed section; returns them.
    @discardableResult
    public func retryUnfinished() async -> [CoinSection] {
        let current = snapshot
        let sections = CoinSection.allCases.filter { current.error(of: $0) != nil }
        for section in sections { await retry(section) }
        return sections
    }

    /// Cancels every section still loading.
    public func cancelAll() async { await reveal.cancelAll() }

    /// The snapshot behind a lock, and who hears of changes.
    final class Store: Sendable {
        private let state = Mutex((snapshot: CoinReportSnapshot(), cached: false))
        let onChange: @Sendable (CoinSection, CoinReportSnapshot) -> Void

        init(onChange: @escaping @Sendable (CoinSection, CoinReportSnapshot) -> Void) {
            self.onChange = onChange
        }

        var snapshot: CoinReportSnapshot { state.withLock { $0.snapshot } }
        var overviewFromCache: Bool { state.withLock { $0.cached } }

        func markCached(_ cached: Bool) { state.withLock { $0.cached = cached } }

        func update(_ section: CoinSection, _ change: (inout CoinReportSnapshot) -> Void) {
            let snapshot = state.withLock { state in
                change(&state.snapshot)
                return state.snapshot
            }
            onChange(section, snapshot)
        }
    }
}

extension CoinReport where C == ContinuousClock {
    /// A report revealed `interval` apart in real time.
    public convenience init(
        coin: Coin, source: any CoinReportSource, cache: (any CoinOverviewCache)? = nil,
        interval: Duration = .milliseconds(350), streaming: Bool = false, logger: Logger? = nil,
        onChange: @escaping @Sendable (CoinSection, CoinReportSnapshot) -> Void = { _, _ in }
    ) {
        self.init(
            coin: coin, source: source, cache: cache, interval: interval, clock: ContinuousClock(), streaming: streaming,
            logger: logger, onChange: onChange)
    }
}
