#if WebSocket  // the `WebSocket` trait: Package.swift
public import Foundation

/// One ticker message in Upbit's WebSocket format (`"type":"ticker"`), with the fields a price
/// screen needs.
///
/// The stand-in adds `seq` (its tick number); against the real API it is nil and `timestamp`
/// orders messages instead.
public struct UpbitTicker: Codable, Sendable, Equatable {
    /// Whether the price rose, fell or stayed since the previous close.
    public enum Change: String, Codable, Sendable {
        /// Up since the previous close.
        case rise = "RISE"
        /// Unchanged.
        case even = "EVEN"
        /// Down since the previous close.
        case fall = "FALL"
    }

    /// The market code, e.g. `KRW-BTC`.
    public var code: String
    /// The last trade's price.
    public var tradePrice: Double
    /// The previous day's closing price.
    public var prevClosingPrice: Double
    /// Rise, even or fall since the previous close.
    public var change: Change
    /// The change since the previous close, with its sign.
    public var signedChangePrice: Double
    /// The change rate since the previous close, with its sign (0.0123 = +1.23%).
    public var signedChangeRate: Double
    /// The last trade's volume.
    public var tradeVolume: Double
    /// The volume traded since 0:00 KST.
    public var accTradeVolume: Double
    /// The last trade's time (ms since 1970).
    public var tradeTimestamp: Int64
    /// The message's time (ms since 1970).
    public var timestamp: Int64
    /// `SNAPSHOT` (sent on subscribing) or `REALTIME`.
    public var streamType: String?
    /// The stand-in's tick number (nil from the real API).
    public var seq: Int64?

    enum CodingKeys: String, CodingKey {
        case code, change, timestamp, seq
        case tradePrice = "trade_price"
        case prevClosingPrice = "prev_closing_price"
        case signedChangePrice = "signed_change_price"
        case signedChangeRate = "signed_change_rate"
        case tradeVolume = "trade_volume"
        case accTradeVolume = "acc_trade_volume"
        case tradeTimestamp = "trade_timestamp"
        case streamType = "stream_type"
    }

    /// What orders this code's messages: `seq` when the server sends one, else `timestamp`.
    var order: Int64 { seq ?? timestamp }
}

/// The subscription message for Upbit's ticker stream.
public enum UpbitSubscription {
    /// `[{"ticket":ticket},{"type":"ticker","codes":codes},{"format":"DEFAULT"}]`, codes upper-cased.
    public static func ticker(codes: [String], ticket: String = UUID().uuidString) -> String {
        let message: [[String: any Sendable]] = [
            ["ticket": ticket],
            ["type": "ticker", "codes": codes.map { $0.uppercased() }],
            ["format": "DEFAULT"],
        ]
        let data = (try? JSONSerialization.data(withJSONObject: message, options: [.sortedKeys])) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
#endif  // WebSocket
