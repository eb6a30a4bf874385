import Courier
import CourierSandbox
import Foundation
import IntegrationTestSupport
import Testing

/// `courier request … --trace` run as a binary against the sandbox: the waterfall on stderr, and a
/// W3C `traceparent` on each attempt, as the server saw them.
@Suite("courier request --trace: the waterfall, its trace id, a traceparent on every attempt")
struct RequestTraceBinaryTests {
    @Test("a retried request: two attempts, each with a traceparent of the one trace printed, each its own span id")
    func retried() async throws {
        let key = "cli-trace-\(UUID().uuidString.prefix(8))"
        try await withSandbox { sandbox in
            var base = sandbox.baseURL.absoluteString
            if base.hasSuffix("/") { base.removeLast() }
            let (status, _, errors) = try await RequestOutputTests.courier([
                "request", "GET", base + "/flaky/\(key)?failures=1", "--retry", "3", "--trace",
            ])
            #expect(status == .exited(0), "\(errors)")
            let stats = try await NetworkClient().request(sandbox.get("/flaky/\(key)/stats"), as: FlakyStats.self)
            let ids = stats.traceParents.map { $0.split(separator: "-").map(String.init) }
            #expect(ids.count == 2 && ids.allSatisfy { $0.count == 4 && $0[0] == "00" && $0[1].count == 32 && $0[2].count == 16 }, "\(stats)")
            #expect(Set(ids.map { $0[1] }).count == 1, "one trace")
            #expect(Set(ids.map { $0[2] }).count == 2, "a span id per attempt")
            for traceParent in stats.traceParents {
                #expect(errors.contains("traceparent \(traceParent)"), "\(errors)")
            }
            #expect(errors.contains("trace id \(ids.first?[1] ?? "?")"), "\(errors)")
            #expect(errors.contains("#1 head 503") && errors.contains("#2 head 200"), "\(errors)")
            // The connection each attempt went out on: a new one, then the same one again.
            let connected = errors.split(separator: "\n").filter { $0.contains(" connection #") }
            #expect(connected.count == 2 && connected[0].contains("#1 connection #") && connected[0].contains("new: connected"), "\(errors)")
            #expect(connected.count == 2 && connected[1].contains("#2 connection #") && connected[1].contains("reused"), "\(errors)")
        }
    }
}
