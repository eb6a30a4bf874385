import Foundation
import IntegrationTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `courier coin report`: today's market mood (the coin app's "긍정적" label and "전체적인 시장은
/// 호재예요" line) in the JSON and on the terminal, and `--open N` opening the N-th news article
/// through the one link opener — the built binary against its in-process sandbox.
@Suite("courier coin report: today's market mood and --open N")
struct CoinReportMoodTests {
    static let report = ["coin", "report", "ETH", "--sandbox", "--no-cache", "--sandbox-latency", "0,0,0"]
    static let label = "\u{1B}[1;32m긍정적\u{1B}[0m · 전체적인 시장은 \u{1B}[1m호재\u{1B}[0m예요"

    @Test("--json: today carries \"marketMood\": \"positive\" beside the summary and the three articles")
    func json() async throws {
        let home = try PrivateHome("coin-mood")
        defer { home.remove() }
        let run = try await home.courier(Self.report + ["--json"])
        #expect(run.status == 0, "\(run.errors)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        let today = try #require(report["today"] as? [String: Any])
        #expect(today["marketMood"] as? String == "positive")
        #expect((today["articles"] as? [Any])?.count == 3)
    }

    @Test("--open 2: $BROWSER runs once with the second article's link as its one argument; the JSON is printed whole")
    func opensArticle() async throws {
        let home = try PrivateHome("coin-open")
        defer { home.remove() }
        let browser = try home.recordingBrowser()
        let run = try await home.courier(Self.report + ["--json", "--open", "2"], environment: ["BROWSER": browser.path])
        #expect(run.status == 0, "\(run.errors)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        let articles = try #require((report["today"] as? [String: Any])?["articles"] as? [[String: Any]])
        let second = try #require(articles[1]["newsSourceURL"] as? String)
        #expect(second == "https://www.panewslab.com/ko/articles/4431e392-7b32-415d-a4b7-28e1be388e5d")
        #expect(try browser.runs() == [[second]])
    }

    @Test("--open 4 of three articles: exit 1, nothing opened; --open 0 is bad usage")
    func noSuchArticle() async throws {
        let home = try PrivateHome("coin-open")
        defer { home.remove() }
        let browser = try home.recordingBrowser()
        let run = try await home.courier(Self.report + ["--json", "--open", "4"], environment: ["BROWSER": browser.path])
        #expect(run.status == 1, "\(run.errors)")
        #expect(run.errors.contains("today's section has 3 news articles, no article 4"))
        let usage = try await home.courier(Self.report + ["--open", "0"], environment: ["BROWSER": browser.path])
        #expect(usage.status == 64, "\(usage.errors)")
        #expect(try browser.runs().isEmpty)
    }

    #if canImport(Glibc)
    @Test("on a terminal: the label in colour and the line with the verdict in bold, above the summary; --open 1 opens when the screen is left")
    func terminal() async throws {
        let home = try PrivateHome("coin-mood")
        defer { home.remove() }
        let browser = try home.recordingBrowser()
        let child = try PseudoTerminalChild(
            try ChildProcess.courierBinary(), Self.report + ["--open", "1"],
            environment: home.environment(["BROWSER": browser.path, "TERM": "xterm"]))
        let shown = await child.read { $0.contains("theonetcv.kr") && $0.contains(Self.label) }
        #expect(try browser.runs().isEmpty, "nothing opened while the screen is up")
        child.type(Array("q".utf8))
        let ended = await child.wait()
        #expect(shown.contains(Self.label), "\(shown.debugDescription)")
        #expect(shown.contains("종료하면 1번 기사를 열어요"))
        let lines = shown.components(separatedBy: "\r\n")
        let labelLine = try #require(lines.lastIndex { $0.contains(Self.label) })
        #expect(lines.dropFirst(labelLine + 1).first?.contains("'신중한' 분위기") == true)
        #expect(ended.exited == 0, "\(ended)")
        #expect(try browser.runs() == [["https://kr.beincrypto.com/base-news/124941/"]])
    }
    #endif
}
