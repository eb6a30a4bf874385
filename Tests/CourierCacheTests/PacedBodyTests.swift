import Courier
import CourierSandbox
import Foundation
import IntegrationTestSupport
import Testing

/// The cache routes' paced bodies: a link slower than loopback, for revalidation measurements.
@Suite("Cache routes: paced bodies")
struct PacedBodyTests {
    @Test("256 KiB at 20 Mbit/s takes at least ~100 ms and arrives whole; a 304 for it carries no body")
    func pacedBody() async throws {
        try await withSandbox { sandbox, client in
            let query: RequestParameters = ["cc": "no-cache", "etag": "p1", "bytes": 256 * 1024, "mbps": 20]
            let start = ContinuousClock.now
            let answer = try await client.response(TestEndpoint(sandbox.baseURL, "/cache/paced-test", query: query))
            let elapsed = ContinuousClock.now - start
            #expect(answer.body.count == 256 * 1024)
            #expect(answer.body.prefix(3) == Data([0, 1, 2]))
            #expect(elapsed >= .milliseconds(95), "\(elapsed)")  // 2,097,152 bits at 20 Mbit/s ≈ 105 ms
            var conditional = TestEndpoint(sandbox.baseURL, "/cache/paced-test", query: query)
            conditional.headers = ["If-None-Match": "\"p1\""]
            let revalidated = try await client.response(conditional, validatingStatus: false)
            #expect(revalidated.statusCode == 304)
            #expect(revalidated.body.isEmpty)
        }
    }
}
