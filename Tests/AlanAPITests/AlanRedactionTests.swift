import AlanAPI
import Courier
import CourierSandbox
import CourierTesting
import Foundation
import IntegrationTestSupport
import Logging
import Testing

/// The client id is a credential: no log line at any level, and no error, may show it.
@Suite("Alan client id redaction")
struct AlanRedactionTests {
    @Test("no log line (debug level, logging middleware + client logger) and no error message holds the client id")
    func neverLogged() async throws {
        try await withSandbox { sandbox throws in
            let clientID = "alan-secret-4242"
            let capture = LogCapture()
            var logger = capture.logger("alan")
            logger.logLevel = .debug
            var configuration = NetworkClient.Configuration(logger: logger)
            configuration.middlewares = [LoggingMiddleware(logger: logger, level: .debug), RetryMiddleware()]
            let alan = alanClient(sandbox, clientID: clientID, configuration: configuration)
            var errors: [NetworkError] = []
            _ = try await alan.ask("평범한 질문")
            _ = try await collect(alan.stream("스트림 질문"))
            try await alan.reset()
            try await control(sandbox, .init(failNext: 1))
            _ = try await alan.ask("500 다음 재시도")
            do throws(NetworkError) { _ = try await alan.ask(String(repeating: "긴", count: 2000)) } catch { errors.append(error) }
            do throws(NetworkError) {
                _ = try await alan.ask(CoinPrompts.weekly(for: Coin(symbol: "BTC")) + "\n#breakage:refusal", as: CoinWeekly.self)
            } catch { errors.append(error) }
            try await control(sandbox, .init(quota: 0))
            do throws(NetworkError) { _ = try await alan.ask("한도 초과") } catch { errors.append(error) }
            do throws(NetworkError) { _ = try await collect(alan.stream("한도 초과")) } catch { errors.append(error) }
            #expect(errors.map(\.caseName) == ["uriTooLong", "modelRefusal", "quotaExceeded", "quotaExceeded"])

            let lines = capture.lines
            #expect(lines.count >= 10)
            #expect(lines.contains { $0.contains("client_id=<redacted>") })
            #expect(lines.contains { $0.contains("resetting the conversation") })
            #expect(lines.contains { $0.contains("too long for the Alan API") })
            #expect(!capture.text.contains(clientID))
            #expect(!capture.text.contains(PercentEncoding.encode(clientID)))
            for error in errors {
                for text in [error.description, error.log(), error.userMessage(in: .english), error.userMessage(in: .korean)] {
                    #expect(!text.contains(clientID))
                }
            }
            #expect(!"\(alan.clientIDs)".contains(clientID))
        }
    }
}
