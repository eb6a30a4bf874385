/// A coin the report is about: its symbol and the Korean name the prompts use.
///
/// ```swift
/// let coin = Coin(symbol: "btc")   // Coin(symbol: "BTC", koreanName: "비트코인")
/// ```
public struct Coin: Sendable, Hashable, Codable {
    /// The ticker, uppercased.
    public var symbol: String
    /// The name in prompts ("비트코인"); the symbol for coins the table does not know.
    public var koreanName: String

    /// The coin `symbol`, named from ``knownNames`` unless `koreanName` is given.
    public init(symbol: String, koreanName: String? = nil) {
        let upper = symbol.uppercased()
        self.symbol = upper
        self.koreanName = koreanName ?? Self.knownNames[upper] ?? upper
    }

    /// Korean names of common coins.
    public static let knownNames: [String: String] = [
        "BTC": "비트코인", "ETH": "이더리움", "XRP": "엑스알피(리플)", "SOL": "솔라나", "DOGE": "도지코인",
        "ADA": "에이다", "TRX": "트론", "USDT": "테더", "BNB": "바이낸스코인", "AVAX": "아발란체",
    ]
}
