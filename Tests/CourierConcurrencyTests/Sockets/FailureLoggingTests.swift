import Courier
import CourierConcurrency
import CourierSandbox
import CourierTesting
import Foundation
import IntegrationTestSupport
import Testing

/// The seed's `print(ne.log())`, through swift-log: `TaskResultHandler` and `OrderedReveal` take
/// an optional `Logger` and log each failure's line once — calls to the sandbox that carry a
/// bearer token and an API key in the query, neither of which may reach a log line.
@Suite("Failures logged the seed's way")
struct FailureLoggingTests {
    static let token = "tok-9f8e7d6c5b4a3210"
    static let apiKey = "key-1a2b3c4d5e6f7788"

    /// A GET of the sandbox's `/status/{code}` with the token and the key.
    static func call(_ sandbox: RunningSandbox, status code: Int) -> TestEndpoint {
        TestEndpoint(
            baseURL: sandbox.baseURL, path: "/status/\(code)", task: .requestParameters(["api_key": apiKey], encoding: .url),
            headers: ["Authorization": "Bearer \(token)"], secrets: [token, apiKey])
    }

    /// Lines of `capture` that mention `text`.
    static func lines(_ capture: LogCapture, containing text: String) -> [String] { capture.lines.filter { $0.contains(text) } }

    @Test("TaskResultHandler: one .error line per failure, the caller's file and function; none for success or cancellation")
    func taskResultHandler() async throws {
        try await withSandbox { sandbox, client in
            let capture = LogCapture()
            let logger = capture.logger()
            let failed = await TaskResultHandler.apply(
                of: { try await client.request(Self.call(sandbox, status: 404), as: Echo.self) }, update: { _ in }, logger: logger)
            #expect(failed.error == .notFound(404) && !failed.isCancelled)
            #expect(capture.lines == ["error test notFound(404)-\"CourierConcurrencyTests/FailureLoggingTests.swift#taskResultHandler()\" "])

            let task = Task<Echo, any Error> { try await client.request(Self.call(sandbox, status: 503), as: Echo.self) }
            await TaskResultHandler.apply(of: task, using: { $0.method }, update: { _ in }, logger: logger)
            #expect(Self.lines(capture, containing: "serviceUnavailable(503)-").count == 1)

            // Success and cancellation log nothing; a failure that is not a NetworkError still logs its line.
            let echo = TestEndpoint(baseURL: sandbox.baseURL, path: "/echo", headers: ["Authorization": "Bearer \(Self.token)"])
            await TaskResultHandler.apply(of: { try await client.request(echo, as: Echo.self) }, update: { _ in }, logger: logger)
            await TaskResultHandler.apply(of: { () async throws -> Int in throw CancellationError() }, update: { _ in }, logger: logger)
            await TaskResultHandler.apply(of: nil as Task<Int, any Error>?, update: { _ in }, logger: logger)
            struct ParserCrash: Error {}
            await TaskResultHandler.apply(of: { () async throws -> Int in throw ParserCrash() }, update: { _ in }, logger: logger)
            #expect(capture.lines.count == 3, "\(capture.lines)")
            #expect(capture.lines.allSatisfy { $0.hasPrefix("error ") })
            #expect(!capture.text.contains(Self.token) && !capture.text.contains(Self.apiKey))
        }
    }

    @Test("a refused connection and a decoding failure log their line without the URL's key")
    func transportAndDecoding() async throws {
        try await withSandbox { sandbox, client in
            let capture = LogCapture()
            let refusing = RefusingPort()
            let closed = TestEndpoint(
                baseURL: URL(string: "http://127.0.0.1:\(refusing.port)")!, path: "/x",
                task: .requestParameters(["api_key": Self.apiKey], encoding: .url),
                headers: ["Authorization": "Bearer \(Self.token)"], secrets: [Self.token, Self.apiKey])
            await TaskResultHandler.apply(of: { try await client.request(closed, as: Echo.self) }, update: { _ in }, logger: capture.logger())
            // The echo repeats the token and the key in its body; decoding it as a number fails.
            let echo = TestEndpoint(
                baseURL: sandbox.baseURL, path: "/echo", task: .requestParameters(["api_key": Self.apiKey], encoding: .url),
                headers: ["Authorization": "Bearer \(Self.token)"], secrets: [Self.token, Self.apiKey])
            await TaskResultHandler.apply(of: { try await client.request(echo, as: Int.self) }, update: { _ in }, logger: capture.logger())
            #expect(capture.lines.count == 2, "\(capture.lines)")
            #expect(capture.lines.first?.contains("networkError(") == true)
            #expect(capture.lines.last?.contains("decodingError(\"") == true)
            #expect(!capture.text.contains(Self.token) && !capture.text.contains(Self.apiKey))
        }
    }

    @Test("OrderedReveal: each shown failure logged once with its section; a retry's new failure again; a cancelled section never")
    func orderedReveal() async throws {
        try await withSandbox { sandbox, client in
            let capture = LogCapture()
            func section(_ id: String, _ code: Int) -> RevealSection {
                // 200: the echo (an Echo); otherwise that status.
                let endpoint = code == 200 ? TestEndpoint(baseURL: sandbox.baseURL, path: "/echo") : Self.call(sandbox, status: code)
                return RevealSection(id, operation: { try await client.request(endpoint, as: Echo.self) }, update: { _ in })
            }
            let slow = RevealSection(id: "slow", client: client, endpoint: sandbox.get("/probe/slow/20000"))
            let reveal = OrderedReveal(
                interval: .zero, sections: [section("overview", 200), section("weekly", 401), section("today", 500), slow], logger: capture.logger())
            await reveal.start()
            await eventually { await reveal.phase(of: "today") == .revealed }
            #expect(await reveal.cancel("slow"))
            await reveal.waitUntilRevealed()
            let file = "CourierConcurrencyTests/FailureLoggingTests.swift"
            #expect(capture.lines == ["error test unauthorized(401)-\"\(file)#weekly\" ", "error test serverError(500)-\"\(file)#today\" "])
            await reveal.retry("today")
            await reveal.waitUntilRevealed()
            #expect(Self.lines(capture, containing: "#today").count == 2)
            #expect(capture.lines.count == 3)
            #expect(!capture.text.contains(Self.token) && !capture.text.contains(Self.apiKey))
        }
    }
}

extension RevealSection {
    /// A section that reads `endpoint` as an `Echo`.
    fileprivate init(id: String, client: NetworkClient, endpoint: TestEndpoint) {
        self.init(id, operation: { try await client.request(endpoint, as: Echo.self) }, update: { _ in })
    }
}
