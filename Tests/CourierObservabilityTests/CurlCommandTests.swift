import Courier
import CourierCookies
import CourierObservability
import CourierSandbox
import Foundation
import IntegrationTestSupport
import Testing

/// `NetworkClient.curlCommand(for:)`: the printed command, run by curl against the sandbox, sends
/// what the client sends — after the middlewares (a bearer token, the jar's cookies) — and
/// nothing reaches the network when it is made.
@Suite("curl commands: the request as it goes to the network, run by curl")
struct CurlCommandTests {
    @Test("curl sends what the client sends: method, path and query, the token, the jar's cookie, the body; nothing was sent to print it")
    func sameRequest() async throws {
        try await withSandbox { sandbox in
            let jar = CookieJar()
            jar.store(["session=abc123; Path=/"], from: sandbox.baseURL)
            let token = BearerTokenMiddleware { BearerTokenMiddleware.Token("t0ken-value", expiresAt: Date().addingTimeInterval(3600)) }
            let client = NetworkClient(transport: NetworkClient.defaultTransport, middlewares: [CookieMiddleware(jar: jar), token])
            let endpoint = TestEndpoint(
                baseURL: sandbox.baseURL, path: "/echo/서울 items", method: .post,
                task: .requestComposite(query: ["q": "a b&c", "n": 3], body: .requestJSONEncodable(["it's": "안녕"])),
                headers: ["X-Trace": "yes"])
            let command = try await client.curlCommand(for: endpoint, revealingSecrets: true)
            #expect(sandbox.acceptedConnections == 0, "printing the command sent nothing")
            let redacted = try await client.curlCommand(for: endpoint)
            #expect(!redacted.contains("t0ken-value") && !redacted.contains("abc123") && redacted.contains("<redacted>"), "\(redacted)")

            let viaCourier = try await client.request(endpoint, as: Echo.self)
            let folder = FileManager.default.temporaryDirectory
            let run = try await runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", command + " -s"], scratch: folder)
            #expect(run.status == 0, "\(run.errors)")
            let viaCurl = try JSONDecoder().decode(Echo.self, from: Data(run.output.utf8))
            #expect(viaCurl.method == viaCourier.method)
            #expect(viaCurl.rawPath == viaCourier.rawPath)
            #expect(viaCurl.rawQuery == viaCourier.rawQuery)
            #expect(viaCurl.body == viaCourier.body)
            for name in ["authorization", "cookie", "content-type", "x-trace"] {
                #expect(viaCurl.headers[name] == viaCourier.headers[name], "\(name)")
            }
            #expect(viaCurl.headers["authorization"] == "Bearer t0ken-value")
            #expect(viaCurl.headers["cookie"] == "session=abc123")
        }
    }
}
