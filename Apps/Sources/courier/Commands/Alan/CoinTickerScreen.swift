import AlanAPI
import CourierWebSocket
import Foundation

/// How `courier coin ticker` shows prices: one line per code, redrawn in place in a terminal,
/// rises red and falls blue as on Korean exchanges, with the connection's state underneath.
struct CoinTickerScreen {
    let codes: [String]
    var latest: [String: UpbitTicker] = [:]
    var status = "연결 중… (connecting)"
    private(set) var drawnLines = 0

    init(codes: [String]) {
        self.codes = codes
    }

    /// One line for `ticker`: code, price, arrow and change, coloured when `colour`.
    static func line(_ ticker: UpbitTicker, colour: Bool) -> String {
        let arrow =
            switch ticker.change {
            case .rise: "▲"
            case .fall: "▼"
            case .even: "-"
            }
        let rate = String(format: "%+.2f%%", ticker.signedChangeRate * 100)
        let change = (ticker.signedChangePrice >= 0 ? "+" : "") + price(ticker.signedChangePrice)
        let text =
            "\(TerminalText.escaped(ticker.code).padding(toLength: 10, withPad: " ", startingAt: 0)) \(price(ticker.tradePrice).leftPadded(to: 16)) KRW  \(arrow) \(rate.leftPadded(to: 7))  \(change.leftPadded(to: 12))"
        guard colour else { return text }
        let code =
            switch ticker.change {
            case .rise: "\u{1B}[31m"
            case .fall: "\u{1B}[34m"
            case .even: ""
            }
        return code.isEmpty ? text : code + text + "\u{1B}[0m"
    }

    /// `1,234,567` for whole won, one decimal below 1,000.
    static func price(_ value: Double) -> String {
        let formatter = NumberFormatter()
        formatter.numberStyle = .decimal
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.usesGroupingSeparator = true
        formatter.groupingSeparator = ","
        formatter.maximumFractionDigits = abs(value) >= 1_000 ? 0 : 1
        formatter.minimumFractionDigits = 0
        return formatter.string(from: NSNumber(value: value)) ?? String(value)
    }

    /// The status line for a session state.
    static func status(_ state: WebSocketSessionState) -> String {
        switch state {
        case .connecting(let attempt): attempt == 1 ? "연결 중… (connecting)" : "연결 중… (connecting, attempt \(attempt))"
        case .connected: "● 실시간 (live)"
        case .reconnecting(let attempt, let after, let reason):
            "↻ 재연결 \(attempt)번째, \(String(format: "%.1f", Double(after.components.seconds) + Double(after.components.attoseconds) / 1e18)) s 후 (reconnecting: \(reason))"
        case .closed(nil): "연결 종료 (closed)"
        case .closed(let error?): "✗ 연결 실패 (gave up): \(error)"
        }
    }

    /// The whole screen; when it was drawn before, first moves the cursor back over it.
    mutating func render() -> String {
        var lines = codes.map { code in
            latest[code].map { Self.line($0, colour: true) } ?? "\(code.padding(toLength: 10, withPad: " ", startingAt: 0)) …"
        }
        // The status can carry the server's close reason: escaped, as it sits in our own SGR.
        lines.append("\u{1B}[2m\(TerminalText.escaped(status))\u{1B}[0m")
        let back = drawnLines > 0 ? "\u{1B}[\(drawnLines)A" : ""
        drawnLines = lines.count
        return back + lines.map { "\r\u{1B}[2K" + $0 }.joined(separator: "\n") + "\n"
    }
}
