import Courier
import CourierSandbox
import CourierTesting
import Foundation
import IntegrationTestSupport
import SeoulCultureAPI
import Testing

extension SeoulSuite {
    @Suite("The key never reaches a log line or an error message")
    struct SeoulSecretsTests {
        @Test("debug-level logging of a whole load and of failures masks the key", arguments: TransportKind.allCases)
        func logsAreRedacted(kind: TransportKind) async throws {
            try await withSeoulSandbox { sandbox in
                let capture = LogCapture()
                let configuration = NetworkClient.Configuration(
                    transport: kind.make(), middlewares: [LoggingMiddleware(logger: capture.logger(), level: .debug)], logger: capture.logger("retry")
                )
                try await sandbox.seoulControl(["failStart": 101, "failTimes": 1, "rows": 350])
                _ = try await sandbox.seoul(configuration: configuration, pageSize: 100).allPrograms()
                let badKey = "WrongKey9876543210ZYXW"
                await #expect(throws: SeoulAPIError.self) {
                    try await sandbox.seoul(key: badKey + "!", configuration: configuration).rows(start: 1, end: 1)
                }
                #expect(capture.lines.count >= 6)
                #expect(capture.text.contains("<redacted>/json/culturalEventInfo"))
                #expect(!capture.text.contains(testKey))
                #expect(!capture.text.contains(badKey))
            }
        }

        @Test("a transport failure's error carries no URL and no key", arguments: TransportKind.allCases)
        func errorsCarryNoKey(kind: TransportKind) async throws {
            let refusing = RefusingPort()
            let seoul = SeoulCultureClient(
                key: testKey, baseURL: refusing.baseURL.appendingPathComponent("seoul"),
                configuration: .init(transport: kind.make()), retryPolicy: RetryPolicy(maxAttempts: 1))
            do throws(SeoulAPIError) {
                _ = try await seoul.allPrograms()
                Issue.record("a refused port answered")
            } catch {
                guard case .network(.networkError(let urlError)) = error else {
                    Issue.record("got \(error)")
                    return
                }
                #expect(urlError.code == .cannotConnectToHost)
                #expect(urlError.failingURL == nil)
                for text in [error.description, error.localizedDescription, String(reflecting: error), "\(urlError)", urlError.localizedDescription] {
                    #expect(!text.contains(testKey), "\(text)")
                }
            }
        }

        @Test("plain http is refused for other hosts and allowed for openapi.seoul.go.kr")
        func transportSecurity() async throws {
            let elsewhere = SeoulCultureClient(key: testKey, baseURL: URL(string: "http://example.com:8088")!)
            await #expect(throws: SeoulAPIError.network(.insecureURL(host: "example.com"))) { try await elsewhere.totalCount() }
            let real = SeoulCultureClient(key: testKey)
            #expect(real.client.configuration.insecureHostsAllowed.contains("openapi.seoul.go.kr"))
            #expect(real.client.configuration.insecureHostsAllowed.isSuperset(of: NetworkClient.loopbackHosts))
            #expect(try CulturalEventAPI.rows(key: testKey, start: 1, end: 1).httpRequest().path == "/\(testKey)/json/culturalEventInfo/1/1")
        }
    }
}
