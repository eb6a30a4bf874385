import Foundation
import IntegrationTestSupport
import Testing

#if canImport(Glibc)
import Glibc

/// `courier bench` in a terminal (a pseudo-terminal, as a person runs it): the progress bar
/// redrawn in place on stderr, the summary after it, and Ctrl-C ending a run with the summary of
/// what ended.
@Suite("courier bench on a terminal: a live bar, a summary, Ctrl-C still summarises")
struct BenchTerminalTests {
    static func environment() -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["TERM"] = "xterm"
        environment["NO_COLOR"] = "1"
        return environment
    }

    @Test("a run draws its bar in place, then prints percentiles, a histogram, statuses and the resilience counts; exit 0")
    func barThenSummary() async throws {
        try await withSandbox { sandbox in
            let url = IdempotencyKeyBinaryTests.base(sandbox) + "/flaky/bench-tty-\(UUID().uuidString.prefix(8))?failures=0&delayMs=5"
            let child = try PseudoTerminalChild(
                try ChildProcess.courierBinary(), ["bench", "-n", "150", "-c", "2", "--breaker", url], environment: Self.environment())
            let shown = await child.read { $0.contains("held by the pacer") }
            let ended = await child.wait()
            #expect(ended.exited == 0, "\(shown.debugDescription)")
            #expect(shown.contains("\r\u{1B}[2K["), "the bar is redrawn in place: \(shown.debugDescription)")
            #expect(shown.contains("/150") && shown.contains("req/s"), "done/total and the rate: \(shown.debugDescription)")
            let summary = try #require(shown.range(of: "Summary: GET ")).lowerBound
            let text = String(shown[summary...])
            for expected in ["Requests/s:", "p50", "p90", "p99.9", "max", "Histogram", "Status:", "200  150", "Errors by family: none", "Breaker:"] {
                #expect(text.contains(expected), "\(expected) in \(text)")
            }
        }
    }

    @Test("Ctrl-C stops a --duration run: the summary of the calls that ended, exit 130", .timeLimit(.minutes(2)))
    func interruptSummarises() async throws {
        try await withSandbox { sandbox in
            let url = IdempotencyKeyBinaryTests.base(sandbox) + "/flaky/bench-int-\(UUID().uuidString.prefix(8))?failures=0&delayMs=20"
            let child = try PseudoTerminalChild(
                try ChildProcess.courierBinary(), ["bench", "--duration", "300", "-c", "2", url], environment: Self.environment())
            // The bar shows calls done: the run is under way.
            let running = await child.read { $0.range(of: #"[1-9][0-9]* done"#, options: .regularExpression) != nil }
            try #require(running.contains(" done"), "no progress: \(running.debugDescription)")
            child.type([0x03])
            let shown = await child.read { $0.contains("held by the pacer") }
            let ended = await child.wait()
            #expect(ended.exited == 130, "\(shown.debugDescription)")
            #expect(shown.contains("Summary (interrupted"), "\(shown.debugDescription)")
            #expect(shown.contains("Status:") && shown.contains("200  "), "\(shown.debugDescription)")
        }
    }
}
#endif
