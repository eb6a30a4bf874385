import Courier
import CourierAsyncHTTPClient
import CourierTesting
import Foundation
import IntegrationTestSupport
import Logging
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import OpenAPIURLSession
import Testing

/// Stock swift-openapi transports plug into `NetworkClient`, and Courier middlewares work with them.
@Suite("Stock transports")
struct StockTransportTests {
    struct Story: Decodable, Sendable {
        var id: Int
        var title: String
    }

    static let stock: [(String, @Sendable () -> any ClientTransport)] = [
        ("swift-openapi-urlsession", { URLSessionTransport() }),
        ("swift-openapi-async-http-client", { OpenAPIAsyncHTTPClient.AsyncHTTPClientTransport() }),
    ]

    @Test("decode, error mapping and logging through each stock transport", arguments: [0, 1])
    func stockTransport(_ index: Int) async throws {
        let capture = LogCapture()
        let transport = Self.stock[index].1()
        try await withSandbox { sandbox in
            let client = NetworkClient(transport: transport, middlewares: [LoggingMiddleware(logger: capture.logger())])
            let story = try await client.request(TestEndpoint(baseURL: sandbox.baseURL, path: "/json"), as: Story.self)
            #expect(story.id == 8863)
            let error = await #expect(throws: NetworkError.self) {
                try await client.response(TestEndpoint(baseURL: sandbox.baseURL, path: "/status/404"))
            }
            #expect(error == .notFound(404))
            let timeout = await #expect(throws: NetworkError.self) {
                try await client.response(TestEndpoint(baseURL: sandbox.baseURL, path: "/delay/3000", timeout: .milliseconds(200)))
            }
            #expect(timeout == .networkError(URLError(.timedOut)))
        }
        #expect(capture.lines.contains { $0.contains("← 200 GET") })
    }
}
