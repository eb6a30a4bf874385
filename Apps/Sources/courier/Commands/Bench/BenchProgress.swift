import Foundation

/// The live line `courier bench` draws on stderr while it runs, when stderr is a terminal (never
/// with `--json`): redrawn in place about 10 times a second (`\r`, erase the line), e.g.
/// `[██████████▍         ]  523/1000  1.1s  482.3 req/s  errors 0  non-2xx 2` — or for a
/// `--duration` run, elapsed over the duration and the calls done so far.
enum BenchProgress {
    /// How often the line is redrawn.
    static let period: Duration = .milliseconds(100)

    /// Redraws the line from `run` every ``period`` until cancelled, then erases it (so the
    /// summary starts on a clean line).
    static func draw(_ run: BenchRun) async {
        while !Task.isCancelled {
            Terminal.write("\r\u{1B}[2K" + line(run.progress(), length: run.length, columns: Terminal.stderrColumns), to: STDERR_FILENO)
            try? await Task.sleep(for: period)
        }
        Terminal.write("\r\u{1B}[2K", to: STDERR_FILENO)
    }

    /// The line for `progress`, fitted to `columns`.
    static func line(_ progress: BenchRun.Progress, length: BenchRun.Length, columns: Int) -> String {
        let elapsed = seconds(progress.elapsed)
        let fraction: Double
        let figures: String
        switch length {
        case .calls(let total):
            fraction = Double(progress.requests) / Double(max(1, total))
            let width = String(total).count
            figures = ProgressBar.padded(String(progress.requests), width) + "/\(total)  " + String(format: "%.1fs", elapsed)
        case .duration(let duration):
            let total = seconds(duration)
            fraction = elapsed / max(total, 0.001)
            figures = String(format: "%.1fs/%gs", min(elapsed, total), total) + "  \(progress.requests) done"
        }
        let rate = elapsed > 0 ? Double(progress.requests) / elapsed : 0
        var text = figures + "  " + String(format: "%.1f req/s", rate) + "  errors \(progress.errors)"
        if progress.failedStatuses > 0 { text += "  non-2xx \(progress.failedStatuses)" }
        let width = min(30, columns - 1 - text.count - 3)
        guard width >= 5 else { return String(text.prefix(max(columns - 1, 10))) }
        let filled = min(width, Int((min(1, fraction) * Double(width)).rounded(.down)))
        return "[" + String(repeating: "█", count: filled) + String(repeating: " ", count: width - filled) + "] " + text
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
