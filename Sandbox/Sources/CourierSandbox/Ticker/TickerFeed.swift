import Foundation
import Synchronization

/// Deterministic random-walk prices for the ticker stand-in: tick `n` of a market code has the
/// same price on every run, so tests can check values and sequence numbers.
///
/// Ticks happen every `interval` from the feed's start; tick `n`'s price is tick `n − 1`'s moved
/// by up to ±0.2%, drawn from a generator seeded by the code and `n`.
final class TickerFeed: Sendable {
    let start: Date
    private let prices = Mutex<[String: [Double]]>([:])

    init(start: Date = Date()) {
        self.start = start
    }

    /// The index of the latest tick at `now` for ticks every `interval`.
    func currentIndex(interval: Duration, now: Date = Date()) -> Int {
        let elapsed = max(0, now.timeIntervalSince(start))
        return Int(elapsed / max(interval.secondsValue, 0.001))
    }

    /// When tick `index` happens.
    func time(of index: Int, interval: Duration) -> Date {
        start.addingTimeInterval(Double(index) * interval.secondsValue)
    }

    /// The price of `code` at tick `index` (tick 0 is the previous close).
    func price(_ code: String, at index: Int) -> Double {
        prices.withLock { table in
            var walk = table[code] ?? [Self.openingPrice(code)]
            while walk.count <= index {
                var generator = SplitMix(state: Self.seed(code) &+ UInt64(walk.count))
                let step = (Double(generator.next() % 10_000) / 10_000 - 0.5) * 0.004
                walk.append(Self.rounded(walk[walk.count - 1] * (1 + step), code: code))
            }
            table[code] = walk
            return walk[index]
        }
    }

    /// A ticker message for `code` at tick `index`, in Upbit's field names, plus `seq`.
    func ticker(_ code: String, at index: Int, interval: Duration, snapshot: Bool) -> TickerMessage {
        let last = price(code, at: index)
        let previousClose = price(code, at: 0)
        let open = price(code, at: max(0, index - 100))
        let change = last - previousClose
        let timestamp = Int64(time(of: index, interval: interval).timeIntervalSince1970 * 1000)
        var generator = SplitMix(state: Self.seed(code) ^ UInt64(index))
        let volume = Double(generator.below(10_000)) / 1000
        return TickerMessage(
            type: "ticker", code: code,
            opening_price: open, high_price: max(open, last), low_price: min(open, last), trade_price: last,
            prev_closing_price: previousClose,
            change: change > 0 ? "RISE" : change < 0 ? "FALL" : "EVEN",
            change_price: abs(change), signed_change_price: change,
            change_rate: abs(change) / previousClose, signed_change_rate: change / previousClose,
            trade_volume: volume, acc_trade_volume: Double(index) * 0.5 + volume,
            acc_trade_price: (Double(index) * 0.5 + volume) * last,
            trade_timestamp: timestamp, timestamp: timestamp,
            stream_type: snapshot ? "SNAPSHOT" : "REALTIME", seq: index)
    }

    static func openingPrice(_ code: String) -> Double {
        switch code {
        case "KRW-BTC": 143_250_000
        case "KRW-ETH": 5_120_000
        case "KRW-XRP": 3_215
        case "KRW-SOL": 312_400
        default: Double(1_000 + Int(seed(code) % 99_000))
        }
    }

    /// KRW prices are quoted in whole won above 1,000 and to the tenth below.
    static func rounded(_ price: Double, code: String) -> Double {
        price >= 1_000 ? price.rounded() : (price * 10).rounded() / 10
    }

    static func seed(_ code: String) -> UInt64 {
        code.utf8.reduce(0xCBF2_9CE4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
    }
}

/// One ticker message, encoded with Upbit's field names.
struct TickerMessage: Codable, Sendable {
    var type: String
    var code: String
    var opening_price: Double
    var high_price: Double
    var low_price: Double
    var trade_price: Double
    var prev_closing_price: Double
    var change: String
    var change_price: Double
    var signed_change_price: Double
    var change_rate: Double
    var signed_change_rate: Double
    var trade_volume: Double
    var acc_trade_volume: Double
    var acc_trade_price: Double
    var trade_timestamp: Int64
    var timestamp: Int64
    var stream_type: String
    var seq: Int
}

extension Duration {
    var secondsValue: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
