import Foundation

// The coin DTOs as far as a streamed answer has written them: every field optional, filled in as
// its tokens arrive (`JSONSnapshot.decode(CoinWeekly.Partial.self).value`). Strings grow; a field
// not begun yet is nil. Each field is decoded on its own, so one the model has written in a shape
// not repaired yet (today's articles before their `[` is restored) is nil and the rest still show.

extension CoinOverview {
    /// A ``CoinOverview`` still being written.
    public struct Partial: Decodable, Sendable, Equatable {
        /// The ticker so far.
        public var symbol: String?
        /// The website so far.
        public var websiteURL: String?
        /// The launch date so far.
        public var launchDate: String?
        /// The description so far.
        public var description: String?

        /// A partial overview.
        public init(symbol: String? = nil, websiteURL: String? = nil, launchDate: String? = nil, description: String? = nil) {
            self.symbol = symbol
            self.websiteURL = websiteURL
            self.launchDate = launchDate
            self.description = description
        }

        enum CodingKeys: String, CodingKey { case symbol, websiteURL, launchDate, description }

        /// Decodes each field on its own: a field of another shape is nil, not a failure.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            symbol = container.lenient(String.self, forKey: .symbol)
            websiteURL = container.lenient(String.self, forKey: .websiteURL)
            launchDate = container.lenient(String.self, forKey: .launchDate)
            description = container.lenient(String.self, forKey: .description)
        }
    }
}

extension CoinWeekly {
    /// A ``CoinWeekly`` still being written.
    public struct Partial: Decodable, Sendable, Equatable {
        /// The price trend so far.
        public var priceTrend: String?
        /// The volume change so far.
        public var volumeChange: String?
        /// The reasons so far.
        public var reason: String?

        /// A partial weekly section.
        public init(priceTrend: String? = nil, volumeChange: String? = nil, reason: String? = nil) {
            self.priceTrend = priceTrend
            self.volumeChange = volumeChange
            self.reason = reason
        }

        enum CodingKeys: String, CodingKey { case priceTrend, volumeChange, reason }

        /// Decodes each field on its own: a field of another shape is nil, not a failure.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            priceTrend = container.lenient(String.self, forKey: .priceTrend)
            volumeChange = container.lenient(String.self, forKey: .volumeChange)
            reason = container.lenient(String.self, forKey: .reason)
        }
    }
}

extension CoinTodayNews {
    /// A ``CoinTodayNews`` still being written.
    public struct Partial: Decodable, Sendable, Equatable {
        /// The summary so far.
        public var summaryOfTodaysMarketSentiment: String?
        /// The mood, once its word is written whole and names one (a half-written word is nil).
        public var marketMood: MarketMood?
        /// The articles so far (the last one possibly half written).
        public var articles: [CoinArticle.Partial]?

        /// A partial today section.
        public init(summaryOfTodaysMarketSentiment: String? = nil, marketMood: MarketMood? = nil, articles: [CoinArticle.Partial]? = nil) {
            self.summaryOfTodaysMarketSentiment = summaryOfTodaysMarketSentiment
            self.marketMood = marketMood
            self.articles = articles
        }

        enum CodingKeys: String, CodingKey { case summaryOfTodaysMarketSentiment, marketMood, articles }

        /// Decodes each field on its own: a field of another shape is nil, not a failure.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            summaryOfTodaysMarketSentiment = container.lenient(String.self, forKey: .summaryOfTodaysMarketSentiment)
            marketMood = container.mood(forKey: .marketMood)
            articles = container.lenient([CoinArticle.Partial].self, forKey: .articles)
        }
    }
}

extension CoinArticle {
    /// A ``CoinArticle`` still being written.
    public struct Partial: Decodable, Sendable, Equatable {
        /// The headline so far.
        public var title: String?
        /// The summary so far.
        public var summary: String?
        /// The link so far.
        public var newsSourceURL: String?

        /// A partial article.
        public init(title: String? = nil, summary: String? = nil, newsSourceURL: String? = nil) {
            self.title = title
            self.summary = summary
            self.newsSourceURL = newsSourceURL
        }

        enum CodingKeys: String, CodingKey { case title, summary, newsSourceURL }

        /// Decodes each field on its own: a field of another shape is nil, not a failure.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            title = container.lenient(String.self, forKey: .title)
            summary = container.lenient(String.self, forKey: .summary)
            newsSourceURL = container.lenient(String.self, forKey: .newsSourceURL)
        }
    }
}

extension KeyedDecodingContainer {
    /// The value at `key`, or nil when it is absent, null or of another shape.
    fileprivate func lenient<T: Decodable>(_ type: T.Type, forKey key: Key) -> T? {
        (try? decodeIfPresent(type, forKey: key)) ?? nil
    }
}
