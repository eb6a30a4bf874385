#if WebSocket  // the `WebSocket` trait: Package.swift
import AlanAPI
import Courier
import CourierSandbox
import IntegrationTestSupport
import CourierWebSocket
import Foundation
import Testing

@Suite("Upbit ticker: subscription, decoding, no tick twice across reconnects")
struct UpbitTickerTests {
    @Test("the subscription message has Upbit's shape")
    func subscription() throws {
        let text = UpbitSubscription.ticker(codes: ["krw-btc", "KRW-ETH"], ticket: "t-1")
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        #expect(parsed.count == 3)
        #expect(parsed[0]["ticket"] as? String == "t-1")
        #expect(parsed[1]["type"] as? String == "ticker")
        #expect(parsed[1]["codes"] as? [String] == ["KRW-BTC", "KRW-ETH"])
        #expect(parsed[2]["format"] as? String == "DEFAULT")
    }

    @Test("tickers decode with prices and changes; each (code, seq) is delivered once although every reconnect re-sends the snapshot")
    func noDuplicatesAcrossReconnects() async throws {
        try await withSandbox { sandbox in
            // One tick for the whole test (a minute long), connections dropped every 300 ms:
            // each new connection's snapshot repeats the tick the ones before already sent.
            try await setFaults(sandbox, "dropAfterMs=300")
            let feed = UpbitTickerFeed(
                url: webSocketURL(sandbox, "/websocket/v1?interval=60000"),
                codes: ["KRW-BTC", "KRW-ETH"],
                reconnect: ReconnectPolicy(initialDelay: .milliseconds(30), maxDelay: .milliseconds(60)))
            let collected = Task { () async throws(NetworkError) -> [UpbitTicker] in
                var tickers: [UpbitTicker] = []
                for try await ticker in feed.tickers { tickers.append(ticker) }
                return tickers
            }
            // Three snapshots of two codes: at least one tick of each code was sent again.
            await eventually(timeout: .seconds(30)) { try await tickerStats(sandbox).messagesSent >= 6 }
            await feed.close()
            let tickers = try await collected.value
            let stats = try await tickerStats(sandbox)

            #expect(stats.messagesSent > tickers.count)  // repeats were sent …
            let keys = tickers.map { "\($0.code)#\($0.seq ?? -1)" }
            #expect(Set(keys).count == keys.count)  // … and none delivered twice
            for code in ["KRW-BTC", "KRW-ETH"] {
                let seqs = tickers.filter { $0.code == code }.compactMap(\.seq)
                #expect(!seqs.isEmpty)
                #expect(seqs == seqs.sorted())
            }
            let btc = try #require(tickers.first { $0.code == "KRW-BTC" })
            #expect(btc.tradePrice > 100_000_000)
            #expect(btc.prevClosingPrice > 0)
            #expect(abs(btc.signedChangeRate - (btc.tradePrice - btc.prevClosingPrice) / btc.prevClosingPrice) < 1e-9)
        }
    }

    @Test("a rejected subscription ends the tickers with the server's error")
    func rejectedSubscription() async throws {
        try await withSandbox { sandbox in
            let feed = UpbitTickerFeed(url: webSocketURL(sandbox, "/websocket/v1"), codes: [])
            await #expect(throws: NetworkError.self) {
                for try await _ in feed.tickers {}
            }
            await feed.close()
        }
    }
}

@Suite("Reconnect policy")
struct ReconnectPolicyTests {
    @Test("delays double from the initial delay, stop at the maximum, and jitter only shortens them")
    func delays() {
        let policy = ReconnectPolicy(initialDelay: .milliseconds(100), maxDelay: .seconds(1), multiplier: 2, jitter: 0.25)
        #expect(
            (1...6).map { policy.delay(attempt: $0, random: 0) } == [
                .milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800), .seconds(1), .seconds(1),
            ])
        #expect(policy.delay(attempt: 1, random: 1) == .milliseconds(75))
        #expect(policy.delay(attempt: 10_000, random: 0) == .seconds(1))  // no overflow, never stuck
        #expect(policy.delayRange(attempt: 3) == .milliseconds(300) ... .milliseconds(400))
    }
}
#endif  // WebSocket
