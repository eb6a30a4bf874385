import Courier
import Foundation
import HTTPTypes
import IntegrationTestSupport
import Testing

/// Status codes from a real server become the specified ``NetworkError`` cases.
@Suite("Status mapping")
struct StatusMappingTests {
    @Test("remoteError carries the UTF-8 body; a non-UTF-8 body gives unknown", arguments: TransportKind.lanes)
    func remoteAndUnknown(_ kind: TransportKind) async throws {
        try await withSandbox(lane: kind) { sandbox in
            let client = NetworkClient(transport: sandbox.transport)
            let remote = await #expect(throws: NetworkError.self) {
                try await client.response(
                    TestEndpoint(
                        baseURL: sandbox.baseURL, path: "/status/409",
                        task: .requestParameters(["body": "이미 존재하는 사용자명"], encoding: .url)))
            }
            #expect(remote == .remoteError(409, "이미 존재하는 사용자명"))
            let unknown = await #expect(throws: NetworkError.self) {
                try await client.response(
                    TestEndpoint(
                        baseURL: sandbox.baseURL, path: "/status/418",
                        task: .requestParameters(["binary": "1"], encoding: .url)))
            }
            #expect(unknown == .unknown(418))
        }
    }

    @Test("standard table: 401 unauthorized, 429 with Retry-After, 5xx", arguments: TransportKind.lanes)
    func standardTable(_ kind: TransportKind) async throws {
        try await withSandbox(lane: kind) { sandbox in
            let client = NetworkClient(transport: sandbox.transport)
            func status(_ code: Int, _ parameters: RequestParameters = [:]) async -> NetworkError? {
                await #expect(throws: NetworkError.self) {
                    try await client.response(
                        TestEndpoint(baseURL: sandbox.baseURL, path: "/status/\(code)", task: .requestParameters(parameters, encoding: .url)))
                }
            }
            #expect(await status(401) == .unauthorized(401))
            #expect(await status(429, ["retryAfter": "7"]) == .rateLimited(retryAfter: 7))
            #expect(await status(429) == .rateLimited(retryAfter: nil))
            #expect(await status(404) == .notFound(404))
            #expect(await status(503) == .serviceUnavailable(503))
            #expect(await status(504) == .serverError(504))
            #expect(await status(400, ["body": "{\"message\":\"bad\"}"]) == .remoteError(400, "{\"message\":\"bad\"}"))
        }
    }

    @Test("a custom mapping is a value")
    func customMapping() {
        let mapping = StatusMapping { response, _ in response.status.code == 299 ? .invalidAPIKey : nil }
        #expect(mapping.error(for: HTTPResponse(status: .init(code: 299)), body: Data()) == .invalidAPIKey)
        #expect(mapping.error(for: HTTPResponse(status: .ok), body: Data()) == nil)
    }
}
