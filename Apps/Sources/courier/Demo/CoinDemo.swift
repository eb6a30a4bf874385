import AlanAPI
import Courier
import CourierConcurrency
import CourierSandbox
import Foundation
import Synchronization

/// The Alan part of `courier demo`: the coin report against the sandbox's stand-in, with its
/// timeline, a cancel and a retry, the client's errors, and a streamed answer.
enum CoinDemo {
    static func run(
        baseURL: URL, alanControl: AlanSandboxControl, output: @escaping @Sendable (String) -> Void
    ) async -> (steps: Int, failures: Int) {
        let root = baseURL.appendingPathComponent("alan")
        let alan = AlanClient(baseURL: root, clientIDs: .single("demo-alan-client-id"))
        var steps = 0
        var failures = 0
        func check(_ ok: Bool, _ text: String) {
            steps += 1
            if !ok { failures += 1 }
            output("\(ok ? "✓" : "✗") \(text)")
        }
        func control(_ settings: AlanSandboxControl.Settings) async {
            await alanControl.configure(settings)
        }

        output("\n── AlanAPI: the coin report — three sections at once, revealed top-down 350 ms apart ──")
        await control(.init(overviewMs: 600, weeklyMs: 150, todayMs: 80))
        let start = ContinuousClock.now
        let finals = Mutex<[String]>([])
        let report = CoinReport(coin: Coin(symbol: "BTC"), source: alan) { section, snapshot in
            let state = snapshot.stateName(of: section)
            let elapsed = ContinuousClock.now - start
            let ms = Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
            output("  " + CoinReportJSON.timelineLine(ms: ms, section: section, state: state))
            if state != "loading" { finals.withLock { $0.append("\(section.rawValue):\(state)") } }
        }
        await report.run()
        let revealed = finals.withLock { $0 }
        let mood = report.snapshot.today.value?.marketMood
        check(
            revealed == ["overview:success", "weekly:success", "today:success"] && mood == .positive,
            "sections answered in 600/150/80 ms, revealed overview → weekly → today; today's mood: "
                + (mood.map { "\($0.label) (\($0.headline))" } ?? "none") + "; news: "
                + (report.snapshot.today.value?.articles.compactMap(\.sourceHost).joined(separator: ", ") ?? "none"))

        output("── per-section cancel and retry ──")
        await control(.init(weeklyMs: 5_000))
        let second = CoinReport(coin: Coin(symbol: "ETH"), source: alan)
        await second.start()
        let deadline = ContinuousClock.now + .seconds(10)
        while second.snapshot.overview.isLoading, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        let cancelled = await second.cancel(.weekly)
        check(
            cancelled && second.snapshot.weekly == .cancel(.taskCancelled),
            "weekly cancelled while loading → \(second.snapshot.stateName(of: .weekly)) at once")
        await second.waitUntilRevealed()
        await control(.init(weeklyMs: 0))
        let retried = await second.retryUnfinished()
        await second.waitUntilRevealed()
        check(
            retried == [.weekly] && second.snapshot.weekly.value != nil && second.snapshot.today.value != nil,
            "retry of the cancelled section → \(second.snapshot.stateName(of: .weekly)); today was not held up: \(second.snapshot.stateName(of: .today))"
        )

        output("── the client's errors, precise enough to debug ──")
        func expect(_ title: String, _ expected: String, _ body: () async throws(NetworkError) -> Void) async {
            do {
                try await body()
                check(false, "\(title) → succeeded, expected \(expected)")
            } catch {
                check(error.caseName == expected, "\(title) → \(error.log(file: "CoinDemo.swift", function: "run"))")
            }
        }
        await expect("prompt of 1 000 Korean letters (9 KB in the query)", "uriTooLong") { () async throws(NetworkError) in
            _ = try await alan.ask(String(repeating: "가", count: 1000))
        }
        let keyless = AlanClient(baseURL: root, clientIDs: AlanClientIDs([.coinReport: "only-report-key"]))
        await expect("dashboard briefing without its client_id", "invalidAPIKey") { () async throws(NetworkError) in
            _ = try await keyless.ask("브리핑", task: .dashboardBriefing)
        }
        await expect("a refusal instead of JSON", "modelRefusal") { () async throws(NetworkError) in
            _ = try await alan.ask(CoinPrompts.today(for: Coin(symbol: "BTC")) + "\n#breakage:refusal", as: CoinTodayNews.self)
        }
        await control(.init(failNext: 1))
        do {
            let answer = try await alan.ask("500 다음에도 답해 줘")
            check(answer.content.contains("1번째 질문"), "a 500 → conversation reset, asked once more → answered")
        } catch {
            check(false, "a 500 → \(error.log(file: "CoinDemo.swift", function: "run"))")
        }
        await control(.init(quota: 0))
        await expect("quota used up (the service answers 401)", "quotaExceeded") { () async throws(NetworkError) in _ = try await alan.ask("한 번 더") }
        await control(.init(quota: 1_000))

        do {
            var tokens = 0
            var complete = ""
            for try await event in alan.stream("오늘 비트코인 어때?") {
                if case .token = event { tokens += 1 }
                if case .complete(let whole) = event { complete = whole }
            }
            check(
                tokens > 10 && complete.hasSuffix("^[490]^"),
                "streamed \(tokens) tokens from Python-dict frames, then the whole answer once: “\(complete.prefix(48))…”")
        } catch {
            check(false, "stream → \(error.log(file: "CoinDemo.swift", function: "run"))")
        }
        return (steps, failures)
    }
}
