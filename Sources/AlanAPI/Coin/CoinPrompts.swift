/// The three prompts of the coin report, with the seed's rules.
///
/// ```swift
/// let prompt = CoinPrompts.weekly(for: Coin(symbol: "BTC"))
/// ```
public enum CoinPrompts {
    /// The overview: what the coin is.
    public static func overview(for coin: Coin) -> String {
        AlanPrompt.make(
            for: CoinOverview.self, subject: coin.koreanName,
            rules: [
                "답변할 항목은 위에 제공한 Swift 구조체의 주석에 따라 내용을 구성",
                "JSON 형식과 변수 또한 구조체와 통일",
            ])
    }

    /// The last week's trend.
    public static func weekly(for coin: Coin) -> String {
        AlanPrompt.make(
            for: CoinWeekly.self, subject: coin.koreanName,
            rules: [
                "현재 국내 시간을 기준으로 일주일 동안의 정보 사용"
            ])
    }

    /// Today's mood (a summary and one word, ``MarketMood``) and three news.
    public static func today(for coin: Coin) -> String {
        AlanPrompt.make(
            for: CoinTodayNews.self, subject: coin.koreanName,
            rules: [
                "현재 국내 시간을 기준으로 최근 24시간 뉴스를 분석해 \(coin.koreanName) 시장 분위기를 요약",
                "전체적인 시장 분위기를 positive, neutral, negative 중 하나로 판단해 marketMood에 작성",
                "뉴스 중 3개를 골라 각각 제목, 요약, 출처 링크를 작성",
            ])
    }
}
