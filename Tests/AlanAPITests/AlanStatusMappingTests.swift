import AlanAPI
import Courier
import Foundation
import HTTPTypes
import IntegrationTestSupport
import Testing

/// The seed app's status table, now `StatusMapping.alan`, against a real server.
@Suite("Alan status mapping")
struct AlanStatusMappingTests {
    @Test("seed (Alan) table", arguments: TransportKind.allCases)
    func seedTable(_ kind: TransportKind) async throws {
        try await withSandbox { sandbox throws in
            let client = NetworkClient(transport: kind.make())
            func status(_ code: Int, _ query: RequestParameters = [:]) async -> NetworkError? {
                await #expect(throws: NetworkError.self) {
                    try await client.response(
                        TestEndpoint(
                            baseURL: sandbox.baseURL, path: "/status/\(code)",
                            task: .requestParameters(query, encoding: .url), statusMapping: .alan))
                }
            }
            #expect(await status(401) == .quotaExceeded(401))
            #expect(await status(404) == .notFound(404))
            #expect(await status(414) == .uriTooLong(414))
            #expect(await status(503) == .serviceUnavailable(503))
            #expect(await status(500) == .serverError(500))
            #expect(await status(502) == .serverError(502))
            #expect(await status(429, ["body": "slow down"]) == .remoteError(429, "slow down"))
            #expect(await status(409, ["body": "이미 존재하는 사용자명"]) == .remoteError(409, "이미 존재하는 사용자명"))
            #expect(await status(418, ["binary": "1"]) == .unknown(418))
            let ok = try await client.response(TestEndpoint(baseURL: sandbox.baseURL, path: "/status/201", statusMapping: .alan))
            #expect(ok.statusCode == 201)
        }
    }
}
