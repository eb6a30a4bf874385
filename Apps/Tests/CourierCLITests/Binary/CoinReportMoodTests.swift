import Foundation
import IntegrationTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `courier coin report`: today's market mood (the coin app's "긍정적" label and "전체적인 시장은
/// 호재예요" line), in the JSON and on the terminal — the built binary against its in-process sandbox.
@Suite("courier coin report: today's market mood")
struct CoinReportMoodTests {
    /// A private HOME, XDG folders and the rest of this process's environment.
    static func environment(_ home: URL) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home.path
        environment["XDG_CACHE_HOME"] = home.appendingPathComponent("cache").path
        environment["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
        environment["XDG_DATA_HOME"] = home.appendingPathComponent("data").path
        environment["ALAN_CLIENT_ID"] = nil
        environment["ALAN_CLIENT_ID_COIN_REPORT"] = nil
        return environment
    }

    static func temporaryHome() throws -> URL {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("coin-mood-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        return home
    }

    @Test("--json: today carries \"marketMood\": \"positive\" beside the summary and the three articles")
    func json() async throws {
        let home = try Self.temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let run = try await runProcess(
            try ChildProcess.courierBinary(), ["coin", "report", "ETH", "--sandbox", "--json", "--no-cache", "--sandbox-latency", "0,0,0"],
            environment: Self.environment(home), scratch: home)
        #expect(run.status == 0, "\(run.errors)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        let today = try #require(report["today"] as? [String: Any])
        #expect(today["marketMood"] as? String == "positive")
        #expect((today["articles"] as? [Any])?.count == 3)
    }

    #if canImport(Glibc)
    @Test("on a terminal: the label in colour and the line with the verdict in bold, above the summary")
    func terminal() async throws {
        let home = try Self.temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        var environment = Self.environment(home)
        environment["TERM"] = "xterm"
        let child = try PseudoTerminalChild(
            try ChildProcess.courierBinary(), ["coin", "report", "ETH", "--sandbox", "--no-cache", "--sandbox-latency", "0,0,0"],
            environment: environment)
        let label = "\u{1B}[1;32m긍정적\u{1B}[0m · 전체적인 시장은 \u{1B}[1m호재\u{1B}[0m예요"
        let shown = await child.read { $0.contains("theonetcv.kr") && $0.contains(label) }
        child.type(Array("q".utf8))
        let ended = await child.wait()
        #expect(shown.contains(label), "\(shown.debugDescription)")
        let lines = shown.components(separatedBy: "\r\n")
        let labelLine = try #require(lines.lastIndex { $0.contains(label) })
        #expect(lines.dropFirst(labelLine + 1).first?.contains("'신중한' 분위기") == true)
        #expect(ended.exited == 0, "\(ended)")
    }
    #endif
}
