import AlanAPI
import Courier
import CourierConcurrency
import CourierSandbox
import CourierTesting
import Foundation
import IntegrationTestSupport
import Logging
import Testing

/// The coin report logs each failed section as the seed printed it (`print(ne.log())`), through
/// the `Logger` it is given — once per failure, never with the client id (the API key in the query).
@Suite("Coin report: failures logged the seed's way")
struct CoinReportLoggingTests {
    static let clientID = "alan-report-secret-5150"

    @Test("quota used up: one quotaExceeded(401) line per section, naming the section; a retry's failure once more")
    func quota() async throws {
        try await withSandbox { sandbox throws in
            try await control(sandbox, .init(quota: 0))
            let capture = LogCapture()
            let alan = alanClient(sandbox, clientID: Self.clientID)
            let report = CoinReport(coin: Coin(symbol: "BTC"), source: alan, interval: .zero, logger: capture.logger("coin"))
            await report.run()
            #expect(
                capture.lines == CoinSection.allCases.map { "error coin quotaExceeded(401)-\"AlanAPI/CoinReport.swift#\($0.rawValue)\" " })
            await report.retry(.weekly)
            await report.waitUntilRevealed()
            #expect(capture.lines.count == 4)
            #expect(capture.lines.last == "error coin quotaExceeded(401)-\"AlanAPI/CoinReport.swift#weekly\" ")
            #expect(!capture.text.contains(Self.clientID))
            #expect(!capture.text.contains(PercentEncoding.encode(Self.clientID)))
        }
    }

    @Test("a success logs nothing; a cancelled section logs nothing; a failing one logs its line once")
    func mixed() async throws {
        try await withSandbox { sandbox throws in
            // The today section takes 20 s: long enough to be cancelled; the model refuses the weekly one.
            try await control(sandbox, .init(todayMs: 20_000))
            let capture = LogCapture()
            let source = RefusingWeekly(alan: alanClient(sandbox, clientID: Self.clientID))
            let report = CoinReport(coin: Coin(symbol: "ETH"), source: source, interval: .zero, logger: capture.logger("coin"))
            await report.start()
            await eventually { !report.snapshot.isLoading(.weekly) }
            #expect(await report.cancel(.today))
            await report.waitUntilRevealed()
            #expect(report.snapshot.overview.value != nil)
            #expect(report.snapshot.isCancelled(.today))
            #expect(capture.lines.count == 1, "\(capture.lines)")
            #expect(capture.lines.first?.hasPrefix("error coin modelRefusal(\"현재 \\\"이더리움\\\"에 대한") == true)
            #expect(capture.lines.first?.hasSuffix("-\"AlanAPI/CoinReport.swift#weekly\" ") == true)
            #expect(!capture.text.contains(Self.clientID))
        }
    }

    /// The stand-in's answers, the weekly one a refusal in plain Korean.
    struct RefusingWeekly: CoinReportSource {
        let alan: AlanClient
        func overview(for coin: Coin) async throws -> CoinOverview { try await alan.overview(for: coin) }
        func weekly(for coin: Coin) async throws -> CoinWeekly {
            try await alan.ask(CoinPrompts.weekly(for: coin) + "\n#breakage:refusal", as: CoinWeekly.self)
        }
        func today(for coin: Coin) async throws -> CoinTodayNews { try await alan.today(for: coin) }
    }
}
