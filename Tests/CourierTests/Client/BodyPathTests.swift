import Courier
import Foundation
import IntegrationTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Buffered and streamed bodies")
struct BodyPathTests {
    @Test("with and without a middleware, the same request gives the same status, headers and bytes", arguments: TransportKind.lanes)
    func samePaths(_ kind: TransportKind) async throws {
        try await withSandbox(lane: kind) { sandbox in
            let transport = sandbox.transport
            let direct = NetworkClient(transport: transport)
            let streamed = NetworkClient(transport: transport, middlewares: [PassThroughMiddleware()])
            for path in ["/json", "/bytes/300000", "/gzip", "/empty/204"] {
                let a = try await direct.response(TestEndpoint(baseURL: sandbox.baseURL, path: path))
                let b = try await streamed.response(TestEndpoint(baseURL: sandbox.baseURL, path: path))
                #expect(a.statusCode == b.statusCode, "\(path)")
                #expect(a.body == b.body, "\(path)")
                #expect(a.headers[.contentType] == b.headers[.contentType], "\(path)")
            }
            let big = try await direct.response(TestEndpoint(baseURL: sandbox.baseURL, path: "/bytes/300000"))
            #expect(big.body.count == 300_000)
            #expect(big.body[123_456] == UInt8(truncatingIfNeeded: 123_456))
        }
    }
}
