import CourierSandbox
import Foundation
import IntegrationTestSupport
import Testing

/// `courier request` never ends on a signal, whatever a server sends: each hostile answer ends in
/// the exit code of the documented table, within its bound.
@Suite("courier request against a hostile server", .serialized)
struct HostileRequestTests {
    @Test(
        "every hostile route ends with its exit code, never a signal",
        arguments: [
            ("/hostile/retry-after?value=1e19&status=429", Int32(11)),
            ("/hostile/retry-after?value=inf", 12),
            ("/hostile/gzip-bomb", 10),  // AsyncHTTPClient refuses it by ratio: a URLError, the transport family
            ("/hostile/endless", 14),
            ("/hostile/declared", 14),
            ("/hostile/headers?count=1000", 10),
            ("/hostile/redirect?to=file:///etc/passwd", 10),
            ("/redirect-loop", 10),
            ("/drip?bytes=100&intervalMs=500", 10),
        ])
    func exitCodes(path: String, code: Int32) async throws {
        let (status, _, errors) = try await RequestOutputTests.withSandbox { base in
            // The drip outlasts any patience: 3 s ends it. The others end by themselves; 30 s is
            // room for a loaded machine, not a bound being measured.
            try await RequestOutputTests.courier(["request", "GET", base + path, "--timeout", path.hasPrefix("/drip") ? "3" : "30"])
        }
        #expect(status == .exited(code), "\(path): \(errors)")
    }
}
