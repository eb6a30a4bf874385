import AlanAPI
import Courier
import CourierSandbox
import Foundation
import IntegrationTestSupport
import Synchronization
import Testing

/// The coin report streaming its sections (``CoinReport`` with `streaming: true`) against the
/// sandbox's stand-in, over real sockets. Timed: it counts the partials shown while the stand-in
/// pauses 20 ms between tokens, so it runs in test.sh's second pass, alone.
@Suite("Coin report, streamed", .tags(.timing))
struct CoinReportStreamingTests {
    @Test("a streaming coin report reveals each section at its first partial, 350 ms after the one above, then fills it in")
    func streamingReport() async throws {
        try await withSandbox { sandbox throws in
            try await control(sandbox, .init(overviewMs: 0, weeklyMs: 0, todayMs: 0, tokenDelayMs: 20))
            let start = ContinuousClock.now
            let changes = Mutex<[(CoinSection, String, Duration, CoinReportSnapshot)]>([])
            let report = CoinReport(coin: Coin(symbol: "BTC"), source: alanClient(sandbox), streaming: true) { section, snapshot in
                let state = snapshot.stateName(of: section)
                changes.withLock { $0.append((section, state, ContinuousClock.now - start, snapshot)) }
            }
            await report.run()
            let recorded = changes.withLock { $0 }
            var firstShown: [CoinSection: Duration] = [:]
            for section in CoinSection.allCases {
                let states = recorded.filter { $0.0 == section }.map(\.1)
                #expect(states.first == "loading")
                #expect(states.last == "success")
                #expect(states.filter { $0 == "partial" }.count >= 3, "\(section): \(states)")
                firstShown[section] = recorded.first { $0.0 == section && $0.1 != "loading" }?.2
            }
            let overview = try #require(firstShown[.overview])
            let weekly = try #require(firstShown[.weekly])
            let today = try #require(firstShown[.today])
            // Stamped in the callbacks, a moment after each reveal's own clock reading: 5 ms of slack.
            #expect(weekly - overview >= .milliseconds(345))
            #expect(today - weekly >= .milliseconds(345))
            // Drafts grow: a weekly draft's price trend is a prefix of the final one.
            let final = try #require(report.snapshot.weekly.value)
            for change in recorded where change.0 == .weekly && change.1 == "partial" {
                if let trend = change.3.weeklyDraft?.priceTrend { #expect(final.priceTrend.hasPrefix(trend)) }
            }
            #expect(report.snapshot.overviewDraft == nil && report.snapshot.weeklyDraft == nil && report.snapshot.todayDraft == nil)
            #expect(try await stats(sandbox).streams == 3)
        }
    }

    @Test("cancelling a section mid-stream shows cancel at once and closes its stream")
    func cancelMidStream() async throws {
        try await withSandbox { sandbox throws in
            try await control(sandbox, .init(overviewMs: 0, weeklyMs: 0, todayMs: 0, tokenDelayMs: 40))
            let report = CoinReport(coin: Coin(symbol: "ETH"), source: alanClient(sandbox), streaming: true)
            await report.start()
            await eventually { report.snapshot.hasDraft(.overview) }
            #expect(await report.cancel(.overview))
            #expect(report.snapshot.overview == .cancel(.taskCancelled))
            #expect(report.snapshot.overviewDraft == nil)
            await report.cancelAll()
            await report.waitUntilRevealed()
        }
    }
}
