// Mirrors: Sources/Courier/Courier.docc/Articles/testing-your-code.md
//
// The article's code, line for line (DocsSyncTests checks that every sample is here). These
// samples are tests themselves, and they run: stubs, a recording clock, captured logs, and the
// sandbox on an ephemeral loopback port.

import Courier
import CourierSandbox
import CourierTesting
import Foundation
import Testing

@Suite("Testing Your Code (article samples)")
struct TestingYourCodeSamples {
    @Test func searchFindsNamesakes() async throws {
        let stub = StubTransport(onUnmatched: { Issue.record("\($0)") })
        try stub.on(UserAPI.search(name: "김민수"), .json(#"[{"id":1,"name":"김민수"},{"id":2,"name":"김민수"}]"#))
        stub.on(.get, "/api/v1/users/404", .status(404))
        let client = NetworkClient(transport: stub)

        let namesakes = try await client.request(UserAPI.search(name: "김민수"), as: [User].self)
        #expect(namesakes.map(\.id) == [1, 2])
        await #expect(throws: NetworkError.notFound(404)) {
            try await client.request(UserAPI.user(id: 404), as: User.self)
        }
        #expect(stub.requests.count == 2)
    }

    @Test func retriesTwiceThenGivesUp() async throws {
        let stub = StubTransport()
        try stub.on(UserAPI.user(id: 1), .status(503))
        let clock = RecordingClock()
        let client = NetworkClient(transport: stub, middlewares: [RetryMiddleware(clock: clock, random: { 0.5 })])

        await #expect(throws: NetworkError.serviceUnavailable(503)) {
            try await client.request(UserAPI.user(id: 1), as: User.self)
        }
        #expect(stub.requests.count == 3)
        #expect(clock.sleeps == [.milliseconds(250), .milliseconds(500)])   // half of 0.5 s × 2ⁿ
    }

    @Test func tokensNeverReachTheLog() async throws {
        let stub = StubTransport()
        try stub.on(UserAPI.user(id: 1), .json(#"{"id":1,"name":"김민수"}"#))
        let capture = LogCapture()
        let auth = BearerTokenMiddleware { BearerTokenMiddleware.Token("secret-token-123") }
        let client = NetworkClient(transport: stub, middlewares: [auth, LoggingMiddleware(logger: capture.logger())])

        _ = try await client.response(UserAPI.user(id: 1))
        #expect(capture.text.contains("GET https://api.example.com/api/v1/users/1"))
        #expect(!capture.text.contains("secret-token-123"))
    }

    @Test func pagesComeFromTheServer() async throws {
        try await SandboxServer.withRunning { sandbox in
            let client = NetworkClient(configuration: .init(baseURL: sandbox.baseURL))
            let page = try await client.request(ItemsAPI.page(offset: 20, limit: 10), as: ItemsPage.self)
            #expect(page.items.map(\.id) == Array(20..<30))
        }
    }
}
