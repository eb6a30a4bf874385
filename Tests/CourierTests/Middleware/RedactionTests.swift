import Courier
import CourierCookies
import CourierTesting
import Foundation
import IntegrationTestSupport
import Logging
import Testing

/// No secret appears in any captured log line.
@Suite("Logging redaction")
struct RedactionTests {
    struct SeoulLike: Endpoint {
        var baseURL: URL
        var key: String
        var path: String { "/echo/\(key)/json/culturalEventInfo/1/5" }
        var method: HTTPMethod { .get }
        var task: HTTPTask { .requestParameters(["client_id": "alan-client-secret", "content": "서울 행사", "api_key": "qk-123456"], encoding: .url) }
        var headers: [String: String]? {
            ["Authorization": "Bearer tok-abcdef123456", "Cookie": "session=cookie-s3cr3t", "X-Trace": "visible-value"]
        }
        var secrets: [String] { [key] }
    }

    @Test("Authorization, cookies, query keys and path keys are redacted in every line", arguments: TransportKind.lanes)
    func redacted(_ kind: TransportKind) async throws {
        let capture = LogCapture()
        try await withSandbox(lane: kind) { sandbox in
            let client = NetworkClient(transport: sandbox.transport, middlewares: [LoggingMiddleware(logger: capture.logger())])
            _ = try await client.response(SeoulLike(baseURL: sandbox.baseURL, key: "5a6b7c8d9e-SEOUL-KEY"))
            _ = try? await client.response(
                TestEndpoint(
                    baseURL: sandbox.baseURL, path: "/status/500",
                    task: .requestParameters(["token": "tok-zzz999"], encoding: .url)))
        }
        let text = capture.text
        #expect(capture.lines.count >= 4)
        for secret in ["5a6b7c8d9e-SEOUL-KEY", "alan-client-secret", "qk-123456", "tok-abcdef123456", "cookie-s3cr3t", "tok-zzz999"] {
            #expect(!text.contains(secret), "\(secret) leaked")
        }
        #expect(text.contains("<redacted>"))
        #expect(text.contains("visible-value"))
        #expect(text.contains("culturalEventInfo"))
    }

    @Test("Redactor rules")
    func rules() {
        let redactor = Redactor(secrets: ["my key/with space"])
        #expect(redactor.url("https://x/a?client_id=abc&q=1") == "https://x/a?client_id=<redacted>&q=1")
        #expect(redactor.url("https://x/my%20key%2Fwith%20space/b") == "https://x/<redacted>/b")
        #expect(redactor.header("authorization", "Bearer x") == "<redacted>")
        #expect(redactor.header("Accept", "application/json") == "application/json")
    }
}
