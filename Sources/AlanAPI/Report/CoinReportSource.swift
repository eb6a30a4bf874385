import Courier

/// Where a ``CoinReport`` gets its three sections. ``AlanClient`` is the real one; tests can
/// pass anything (a source that throws a non-network error, for instance).
public protocol CoinReportSource: Sendable {
    /// The overview of `coin`.
    func overview(for coin: Coin) async throws -> CoinOverview
    /// The last week of `coin`.
    func weekly(for coin: Coin) async throws -> CoinWeekly
    /// Today's mood and news of `coin`.
    func today(for coin: Coin) async throws -> CoinTodayNews
}

extension AlanClient: CoinReportSource {
    /// Asks for the overview under the ``AlanTask/coinReport`` key.
    public func overview(for coin: Coin) async throws -> CoinOverview {
        try await ask(CoinPrompts.overview(for: coin), as: CoinOverview.self, task: .coinReport)
    }

    /// Asks for the weekly trend under the ``AlanTask/coinReport`` key.
    public func weekly(for coin: Coin) async throws -> CoinWeekly {
        try await ask(CoinPrompts.weekly(for: coin), as: CoinWeekly.self, task: .coinReport)
    }

    /// Asks for today's mood and news under the ``AlanTask/coinReport`` key.
    public func today(for coin: Coin) async throws -> CoinTodayNews {
        try await ask(CoinPrompts.today(for: coin), as: CoinTodayNews.self, task: .coinReport)
    }
}
