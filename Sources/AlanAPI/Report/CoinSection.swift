public import Courier
public import CourierConcurrency

/// The three sections of a coin report, in reveal order.
public enum CoinSection: String, CaseIterable, Sendable, Codable {
    /// ``CoinOverview``.
    case overview
    /// ``CoinWeekly``.
    case weekly
    /// ``CoinTodayNews``.
    case today

    /// The section's heading on screen.
    public var title: String {
        switch self {
        case .overview: "개요"
        case .weekly: "주간 동향"
        case .today: "오늘 시장 분위기"
        }
    }
}

/// Where each section of a ``CoinReport`` stands.
public struct CoinReportSnapshot: Sendable, Equatable {
    /// The overview's state.
    public var overview: FetchState<CoinOverview> = .loading
    /// The weekly section's state.
    public var weekly: FetchState<CoinWeekly> = .loading
    /// Today's section's state.
    public var today: FetchState<CoinTodayNews> = .loading

    /// The overview as far as its streamed answer has written it, while `overview` is loading
    /// and the section has been revealed (a streaming ``CoinReport``); nil otherwise.
    public var overviewDraft: CoinOverview.Partial?
    /// The weekly section so far (as ``overviewDraft``).
    public var weeklyDraft: CoinWeekly.Partial?
    /// Today's section so far (as ``overviewDraft``).
    public var todayDraft: CoinTodayNews.Partial?

    /// A snapshot with every section loading.
    public init() {}

    /// Whether `section` is loading and shows a draft (a streaming report revealed it at a partial answer).
    public func hasDraft(_ section: CoinSection) -> Bool {
        switch section {
        case .overview: overview.isLoading && overviewDraft != nil
        case .weekly: weekly.isLoading && weeklyDraft != nil
        case .today: today.isLoading && todayDraft != nil
        }
    }

    /// Whether `section` is loading.
    public func isLoading(_ section: CoinSection) -> Bool {
        switch section {
        case .overview: overview.isLoading
        case .weekly: weekly.isLoading
        case .today: today.isLoading
        }
    }

    /// The error `section` ended with (cancelled or failed), if any.
    public func error(of section: CoinSection) -> NetworkError? {
        switch section {
        case .overview: overview.error
        case .weekly: weekly.error
        case .today: today.error
        }
    }

    /// Whether `section` was cancelled.
    public func isCancelled(_ section: CoinSection) -> Bool {
        switch section {
        case .overview: overview.isCancelled
        case .weekly: weekly.isCancelled
        case .today: today.isCancelled
        }
    }

    /// A short name of the section's state: `loading`, `partial` (loading, a draft shown), `success`, `cancel(taskCancelled)`,
    /// `failure(quotaExceeded(401))`.
    public func stateName(of section: CoinSection) -> String {
        if hasDraft(section) { return "partial" }
        if isLoading(section) { return "loading" }
        guard let error = error(of: section) else { return "success" }
        return "\(isCancelled(section) ? "cancel" : "failure")(\(error))"
    }
}
