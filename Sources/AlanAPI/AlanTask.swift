/// What a question is for. The coin app kept one `client_id` per task, so each task's quota
/// and conversation are separate; ``AlanClientIDs`` maps tasks to keys.
///
/// ```swift
/// let keys = AlanClientIDs([.coinReport: "…", .dashboardBriefing: "…"])
/// let custom: AlanTask = "translation"   // any name works
/// ```
public struct AlanTask: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The task's name, e.g. `coin-report`.
    public let rawValue: String

    /// A task named `rawValue` (lowercased).
    public init(rawValue: String) { self.rawValue = rawValue.lowercased() }

    /// A task named `value`.
    public init(stringLiteral value: String) { self.init(rawValue: value) }

    /// The task's name.
    public var description: String { rawValue }

    /// The variable that holds this task's key: `ALAN_CLIENT_ID_COIN_REPORT` for `coin-report`.
    public var environmentName: String {
        "ALAN_CLIENT_ID_" + rawValue.uppercased().map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined()
    }

    /// Coin recommendations.
    public static let coinRecommendation: AlanTask = "coin-recommendation"
    /// The dashboard's briefing.
    public static let dashboardBriefing: AlanTask = "dashboard-briefing"
    /// The coin report (overview, weekly, today).
    public static let coinReport: AlanTask = "coin-report"
    /// Finding coin ids in text.
    public static let coinIDExtraction: AlanTask = "coin-id-extraction"
    /// Bookmark suggestions.
    public static let bookmarkSuggestion: AlanTask = "bookmark-suggestion"
    /// A plain question (the CLI's `alan ask`).
    public static let general: AlanTask = "general"

    /// The seed app's five tasks.
    public static let seedTasks: [AlanTask] = [.coinRecommendation, .dashboardBriefing, .coinReport, .coinIDExtraction, .bookmarkSuggestion]
}
