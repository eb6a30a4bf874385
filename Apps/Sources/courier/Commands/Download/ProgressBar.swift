import Courier
import CourierTransfers
import Foundation

/// The progress bar `courier download` draws on stderr when it is a terminal: one line redrawn
/// in place (`\r`, erase to the end), e.g.
/// `big.bin  42% [████████▍           ] 44.0 MB / 104.9 MB  95.3 MB/s  0:01 left`.
/// Without a known length: bytes and rate only, no percentage or time left.
final class ProgressBar: Sendable {
    let name: String

    init(name: String) {
        self.name = name
    }

    func draw(_ snapshot: TransferProgress.Snapshot) {
        Terminal.write("\r\u{1B}[2K" + Self.line(snapshot, name: TerminalText.escaped(name), columns: Terminal.stderrColumns), to: STDERR_FILENO)
    }

    /// Ends the bar's line.
    func finish() {
        Terminal.write("\n", to: STDERR_FILENO)
    }

    /// The bar's text for `snapshot`, fitted to `columns`.
    static func line(_ snapshot: TransferProgress.Snapshot, name: String, columns: Int) -> String {
        let rate = bytes(Int64(snapshot.bytesPerSecond)) + "/s"
        guard let fraction = snapshot.fractionCompleted, let total = snapshot.bytesExpected else {
            return String("\(name)  \(bytes(snapshot.bytesDone))  \(rate)".prefix(max(columns - 1, 10)))
        }
        let percent = String(format: "%3d%%", Int(fraction * 100))
        let left = snapshot.estimatedTimeRemaining.map { " " + clock($0) + " left" } ?? String(repeating: " ", count: 10)
        // Figures padded to their widest ("999.9 kB", "999.9 MB/s"), so the bar keeps its width
        // from one redraw to the next.
        let numbers = " \(padded(bytes(snapshot.bytesDone), 8)) / \(bytes(total))  \(padded(rate, 10))\(left)"
        let prefix = "\(name) \(percent) "
        let width = max(0, min(30, columns - 1 - prefix.count - numbers.count - 2))
        guard width >= 5 else { return String((prefix + numbers).prefix(max(columns - 1, 10))) }
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar = String(repeating: "█", count: filled) + String(repeating: " ", count: width - filled)
        return prefix + "[" + bar + "]" + numbers
    }

    /// `text` right-aligned in `width` columns.
    static func padded(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }

    /// `bytes` in decimal units (as curl and most download tools show them).
    static func bytes(_ count: Int64) -> String {
        let value = Double(count)
        if value < 1000 { return "\(count) B" }
        for (unit, scale) in [("kB", 1e3), ("MB", 1e6), ("GB", 1e9), ("TB", 1e12)] where value < scale * 1000 {
            return String(format: "%.1f", value / scale) + " " + unit
        }
        return String(format: "%.1f PB", value / 1e15)
    }

    /// `m:ss`, or `h:mm:ss` from an hour on.
    static func clock(_ duration: Duration) -> String {
        let seconds = max(0, duration.components.seconds)
        let (hours, minutes, rest) = (seconds / 3600, seconds / 60 % 60, seconds % 60)
        return hours > 0 ? String(format: "%lld:%02lld:%02lld", hours, minutes, rest) : String(format: "%lld:%02lld", minutes, rest)
    }
}
