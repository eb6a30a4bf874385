import AsyncHTTPClient
import CourierSandbox
import Foundation
import IntegrationTestSupport
import Testing

/// `/outage/{key}`: healthy, then a window of 5xx, then healthy again, for circuit-breaker tests.
@Suite("Sandbox: outage routes for circuit breakers", .tags(.timing))
struct OutageRoutesTests {
    @Test("healthy before afterMs, the chosen status for forMs, healthy after; stats place every request and time the recovery")
    func window() async throws {
        try await withSandbox { sandbox in
            // The client's waits are counted from the first answer, which the server saw its first
            // request before: a request sent 250 ms after it is in the outage on the server's clock
            // unless it takes ~2 s to arrive, and one sent 2300 ms after it is past the outage.
            let path = "/outage/window?afterMs=200&forMs=2000&status=502"
            let first = try await sandbox.send(.GET, path)
            let reference = ContinuousClock.now
            #expect(first.status == 200 && first.object["phase"] as? String == "before" && first.object["request"] as? Int == 1)

            try await Task.sleep(until: reference + .milliseconds(250))
            let down = try await sandbox.send(.GET, path)
            #expect(down.status == 502 && down.object["phase"] as? String == "during" && down.object["error"] as? String == "outage")
            #expect(down.object["request"] as? Int == 2)
            let during = try await sandbox.send(.GET, "/outage/window/stats")
            #expect(during.object["firstOkAfterOutageMs"] is NSNull, "null, not missing, until a request succeeds after the outage: \(during.text)")
            let posted = try await sandbox.send(.POST, path, body: Array(#"{"order":1}"#.utf8))
            #expect(posted.status == 502)

            try await Task.sleep(until: reference + .milliseconds(2300))
            let up = try await sandbox.send(.GET, path)
            #expect(up.status == 200 && up.object["phase"] as? String == "after" && up.object["request"] as? Int == 4)
            let head = try await sandbox.send(.HEAD, path)
            #expect(head.status == 200 && head.body.isEmpty)

            let stats = try await sandbox.json("/outage/window/stats", as: OutageStats.self)
            #expect(stats.requests == 5 && stats.beforeOutage == 1 && stats.duringOutage == 2 && stats.afterOutage == 2)
            let recovered = try #require(stats.firstOkAfterOutageMs, "a 200 after the outage was timed")
            #expect(recovered >= 100 && recovered < 60_000, "\(recovered) ms: sent at least 2300 ms after the first, the outage ended at 2200")
        }
    }

    @Test("status saturates into 500…599 and the times into 0…600000, a value that is not a number is the default; the first request sets the window")
    func saturationAndFirstWindow() async throws {
        try await withSandbox { sandbox in
            #expect(try await sandbox.send(.GET, "/outage/high?afterMs=0&status=700").status == 599)
            #expect(try await sandbox.send(.GET, "/outage/low?afterMs=-5&status=42").status == 500)
            #expect(try await sandbox.send(.GET, "/outage/junk?afterMs=0&status=oops").status == 503)
            #expect(try await sandbox.send(.GET, "/outage/default").object["phase"] as? String == "before", "afterMs is 1000 by default")

            let none = try await sandbox.send(.GET, "/outage/none?afterMs=0&forMs=0")
            #expect(none.status == 200 && none.object["phase"] as? String == "after", "an outage of 0 ms")
            #expect(
                try await sandbox.json("/outage/none/stats", as: OutageStats.self)
                    == OutageStats(requests: 1, afterOutage: 1, firstOkAfterOutageMs: 0))

            let far = try await sandbox.send(.GET, "/outage/fixed?afterMs=99999999999999999999")
            #expect(far.status == 200 && far.object["phase"] as? String == "before", "capped at 600000 ms, not wrapped")
            let later = try await sandbox.send(.GET, "/outage/fixed?afterMs=0")
            #expect(later.status == 200 && later.object["phase"] as? String == "before", "the first request's window holds")
            #expect(try await sandbox.json("/outage/fixed/stats", as: OutageStats.self) == OutageStats(requests: 2, beforeOutage: 2))
        }
    }

    @Test("reset forgets every key: the next request starts a new window")
    func reset() async throws {
        try await withSandbox { sandbox in
            #expect(try await sandbox.send(.GET, "/outage/r?afterMs=0").status == 503)
            try await sandbox.reset("/outage/reset")
            #expect(try await sandbox.json("/outage/r/stats", as: OutageStats.self) == OutageStats())
            let fresh = try await sandbox.send(.GET, "/outage/r?afterMs=600000")
            #expect(fresh.status == 200 && fresh.object["request"] as? Int == 1 && fresh.object["phase"] as? String == "before")
            #expect(try await sandbox.json("/outage/r/stats", as: OutageStats.self) == OutageStats(requests: 1, beforeOutage: 1))
        }
    }
}
