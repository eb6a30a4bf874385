import Courier
public import CourierLLM
import CourierLLMAdapter

/// Where a ``CoinReport`` gets its three sections. ``AlanClient`` is the real one; tests can
/// pass anything (a source that throws a non-network error, for instance).
///
/// The streaming requirements (with `partial`) have defaults that call the whole-answer ones and
/// report no partials, so a source only needs the three whole-answer methods.
public protocol CoinReportSource: Sendable {
    /// The overview of `coin`.
    func overview(for coin: Coin) async throws -> CoinOverview
    /// The last week of `coin`.
    func weekly(for coin: Coin) async throws -> CoinWeekly
    /// Today's mood and news of `coin`.
    func today(for coin: Coin) async throws -> CoinTodayNews

    /// The overview of `coin`, each partial of the answer handed to `partial` as it arrives.
    func overview(for coin: Coin, partial: @escaping @Sendable (JSONSnapshot) async -> Void) async throws -> CoinOverview
    /// The last week of `coin`, each partial of the answer handed to `partial` as it arrives.
    func weekly(for coin: Coin, partial: @escaping @Sendable (JSONSnapshot) async -> Void) async throws -> CoinWeekly
    /// Today's mood and news of `coin`, each partial of the answer handed to `partial` as it arrives.
    func today(for coin: Coin, partial: @escaping @Sendable (JSONSnapshot) async -> Void) async throws -> CoinTodayNews
}

extension CoinReportSource {
    /// The whole answer; no partials.
    public func overview(for coin: Coin, partial: @escaping @Sendable (JSONSnapshot) async -> Void) async throws -> CoinOverview {
        try await overview(for: coin)
    }

    /// The whole answer; no partials.
    public func weekly(for coin: Coin, partial: @escaping @Sendable (JSONSnapshot) async -> Void) async throws -> CoinWeekly {
        try await weekly(for: coin)
    }

    /// The whole answer; no partials.
    public func today(for coin: Coin, partial: @escaping @Sendable (JSONSnapshot) async -> Void) async throws -> CoinTodayNews {
        try await today(for: coin)
    }
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

    /// Streams the overview under the ``AlanTask/coinReport`` key (``stream(_:as:task:)``).
    public func overview(for coin: Coin, partial: @escaping @Sendable (JSONSnapshot) async -> Void) async throws -> CoinOverview {
        try await streamed(CoinPrompts.overview(for: coin), as: CoinOverview.self, partial: partial)
    }

    /// Streams the weekly trend under the ``AlanTask/coinReport`` key (``stream(_:as:task:)``).
    public func weekly(for coin: Coin, partial: @escaping @Sendable (JSONSnapshot) async -> Void) async throws -> CoinWeekly {
        try await streamed(CoinPrompts.weekly(for: coin), as: CoinWeekly.self, partial: partial)
    }

    /// Streams today's mood and news under the ``AlanTask/coinReport`` key (``stream(_:as:task:)``).
    public func today(for coin: Coin, partial: @escaping @Sendable (JSONSnapshot) async -> Void) async throws -> CoinTodayNews {
        try await streamed(CoinPrompts.today(for: coin), as: CoinTodayNews.self, partial: partial)
    }

    private func streamed<T: Decodable & Sendable>(
        _ prompt: String, as type: T.Type, partial: @escaping @Sendable (JSONSnapshot) async -> Void
    ) async throws(NetworkError) -> T {
        for try await update in stream(prompt, as: T.self, task: .coinReport) {
            switch update {
            case .partial(let snapshot, _): await partial(snapshot)
            case .complete(let value): return value
            }
        }
        throw .invalidResponse  // the stream always ends with `.complete` or an error
    }
}
