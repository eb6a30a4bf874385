import Foundation

/// The report's first section: what the coin is (the coin app's `CoinOverviewDTO`).
public struct CoinOverview: Codable, Sendable, Equatable, PromptDescribable {
    /// The ticker, e.g. `ETH`.
    public var symbol: String
    /// The project's website, if it has one.
    public var websiteURL: String?
    /// When it was first issued, e.g. `2015.07.`.
    public var launchDate: String
    /// A few connected sentences introducing it.
    public var description: String

    /// Creates an overview.
    public init(symbol: String, websiteURL: String?, launchDate: String, description: String) {
        self.symbol = symbol
        self.websiteURL = websiteURL
        self.launchDate = launchDate
        self.description = description
    }

    /// Encodes every field, `websiteURL` as `null` when there is none (the seed DTO's shape).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(symbol, forKey: .symbol)
        try container.encode(websiteURL, forKey: .websiteURL)
        try container.encode(launchDate, forKey: .launchDate)
        try container.encode(description, forKey: .description)
    }

    /// The website's host for display (`ethereum.org`), nil without a usable URL.
    public var websiteHost: String? { websiteURL.flatMap(CoinArticle.host(of:)) }

    /// The field comments the coin app pasted into its prompt.
    public static let promptFields: [PromptField] = [
        PromptField("symbol", "심볼: ETH"),
        PromptField("websiteURL", "웹사이트: https://ethereum.org/ko/"),
        PromptField("launchDate", "최초발행: 2015.07."),
        PromptField("description", "디지털 자산 소개, 문장을 자연스럽게 연결하기"),
    ]
}

/// The report's second section: the last week (the coin app's `CoinWeeklyDTO`).
public struct CoinWeekly: Codable, Sendable, Equatable, PromptDescribable {
    /// How the price moved over the last week.
    public var priceTrend: String
    /// How the traded volume changed over the last week.
    public var volumeChange: String
    /// The main reasons for both.
    public var reason: String

    /// Creates a weekly section.
    public init(priceTrend: String, volumeChange: String, reason: String) {
        self.priceTrend = priceTrend
        self.volumeChange = volumeChange
        self.reason = reason
    }

    /// The field comments the coin app pasted into its prompt.
    public static let promptFields: [PromptField] = [
        PromptField("priceTrend", "최근 일주일 가격 추이"),
        PromptField("volumeChange", "최근 일주일 거래량 변화"),
        PromptField("reason", "지난 일주일간 가격 추이와 거래량 변화의 주요 원인"),
    ]
}

/// The report's third section: today's mood and three news (the coin app's `CoinTodayNewsDTO`,
/// plus the mood label the app showed above the news).
public struct CoinTodayNews: Codable, Sendable, Equatable, PromptDescribable {
    /// A summary of the last 24 hours' market sentiment.
    public var summaryOfTodaysMarketSentiment: String
    /// The market's mood in one word, when the model gave one that names a mood (``MarketMood``):
    /// a missing, unknown or mistyped value is nil, never a failed section.
    public var marketMood: MarketMood?
    /// Three articles.
    public var articles: [CoinArticle]

    /// Creates a today section.
    public init(summaryOfTodaysMarketSentiment: String, marketMood: MarketMood? = nil, articles: [CoinArticle]) {
        self.summaryOfTodaysMarketSentiment = summaryOfTodaysMarketSentiment
        self.marketMood = marketMood
        self.articles = articles
    }

    enum CodingKeys: String, CodingKey { case summaryOfTodaysMarketSentiment, marketMood, articles }

    /// Decodes the summary and the articles as written; the mood tolerantly (``MarketMood/init(answer:)``).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        summaryOfTodaysMarketSentiment = try container.decode(String.self, forKey: .summaryOfTodaysMarketSentiment)
        marketMood = container.mood(forKey: .marketMood)
        articles = try container.decode([CoinArticle].self, forKey: .articles)
    }

    /// Encodes every field, `marketMood` as `null` when there is none.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(summaryOfTodaysMarketSentiment, forKey: .summaryOfTodaysMarketSentiment)
        try container.encode(marketMood, forKey: .marketMood)
        try container.encode(articles, forKey: .articles)
    }

    /// The field comments the coin app pasted into its prompt.
    public static let promptFields: [PromptField] = [
        PromptField("summaryOfTodaysMarketSentiment", "최근 24시간 뉴스로 본 오늘의 시장 분위기 요약"),
        PromptField("marketMood", "오늘의 시장 분위기 한 단어: positive(호재), neutral(보합세), negative(악재) 중 하나"),
        PromptField("articles", "뉴스 3개"),
    ]
    /// ``CoinArticle``, described after this struct in the prompt.
    public static var nestedPromptTypes: [any PromptDescribable.Type] { [CoinArticle.self] }
}

/// One news article of ``CoinTodayNews``.
public struct CoinArticle: Codable, Sendable, Equatable, PromptDescribable {
    /// The headline.
    public var title: String
    /// A one-sentence summary.
    public var summary: String
    /// The article's address.
    public var newsSourceURL: String

    /// Creates an article.
    public init(title: String, summary: String, newsSourceURL: String) {
        self.title = title
        self.summary = summary
        self.newsSourceURL = newsSourceURL
    }

    /// The link's text: the URL's host without `www.` (`kr.beincrypto.com`), as the app showed
    /// it; nil when the URL has no host.
    public var sourceHost: String? { Self.host(of: newsSourceURL) }

    static func host(of text: String) -> String? {
        guard let host = URL(string: text.trimmingCharacters(in: .whitespacesAndNewlines))?.host, !host.isEmpty else { return nil }
        return host.hasPrefix("www.") ? String(host.dropFirst(4)) : host
    }

    /// The field comments the coin app pasted into its prompt.
    public static let promptFields: [PromptField] = [
        PromptField("title", "뉴스 제목"),
        PromptField("summary", "뉴스 요약"),
        PromptField("newsSourceURL", "뉴스 출처 링크"),
    ]
}

extension KeyedDecodingContainer {
    /// The mood at `key`: nil when it is absent, null, not a string or names no mood.
    func mood(forKey key: Key) -> MarketMood? {
        guard let text = (try? decodeIfPresent(String.self, forKey: key)) ?? nil else { return nil }
        return MarketMood(answer: text)
    }
}
