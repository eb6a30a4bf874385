import AsyncHTTPClient
import CourierSandbox
import Foundation
import IntegrationTestSupport
import Testing

/// `/flaky/{key}`: failures, then success, as a retrying client sees them.
@Suite("Sandbox: flaky routes for retries")
struct FlakyRoutesTests {
    @Test("the first two requests fail with 503 and a JSON error, the third succeeds with attempt 3")
    func defaultFailures() async throws {
        try await withSandbox { sandbox in
            for attempt in 1...2 {
                let failure = try await sandbox.send(.GET, "/flaky/basic")
                #expect(failure.status == 503)
                #expect(failure.object["key"] as? String == "basic" && failure.object["attempt"] as? Int == attempt)
                #expect(failure.object["error"] as? String == "flaky" && failure.header("Retry-After") == nil)
            }
            let success = try await sandbox.send(.GET, "/flaky/basic")
            #expect(success.status == 200)
            #expect(success.object["attempt"] as? Int == 3 && success.object["method"] as? String == "GET" && success.object["body"] as? String == "")
            let after = try await sandbox.send(.GET, "/flaky/basic")
            #expect(after.status == 200 && after.object["attempt"] as? Int == 4)
        }
    }

    @Test("failures=, status= and retryAfter= choose how many fail, with which status and Retry-After (verbatim)")
    func chosenFailure() async throws {
        try await withSandbox { sandbox in
            let date = "Wed, 21 Oct 2015 07:28:00 GMT"
            let query = "failures=1&status=429&retryAfter=\(date.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")"
            let limited = try await sandbox.send(.GET, "/flaky/dated?\(query)")
            #expect(limited.status == 429 && limited.header("Retry-After") == date)
            let ok = try await sandbox.send(.GET, "/flaky/dated?\(query)")
            #expect(ok.status == 200 && ok.header("Retry-After") == nil)

            let seconds = try await sandbox.send(.GET, "/flaky/seconds?failures=1&status=500&retryAfter=1")
            #expect(seconds.status == 500 && seconds.header("Retry-After") == "1")
            let none = try await sandbox.send(.GET, "/flaky/none?failures=0")
            #expect(none.status == 200 && none.object["attempt"] as? Int == 1)
        }
    }

    @Test("a replayed POST body comes back as text in the success, for every method; HEAD has no body")
    func bodiesAndMethods() async throws {
        try await withSandbox { sandbox in
            let payload = #"{"order":42,"note":"한글"}"#
            let failed = try await sandbox.send(.POST, "/flaky/post?failures=1", body: Array(payload.utf8))
            #expect(failed.status == 503)
            let replayed = try await sandbox.send(.POST, "/flaky/post?failures=1", body: Array(payload.utf8))
            #expect(replayed.status == 200 && replayed.object["body"] as? String == payload && replayed.object["method"] as? String == "POST")
            for method in [Method.PUT, .PATCH, .DELETE] {
                let answer = try await sandbox.send(method, "/flaky/m-\(method.rawValue)?failures=0", body: Array("x".utf8))
                #expect(answer.status == 200 && answer.object["method"] as? String == method.rawValue && answer.object["body"] as? String == "x")
            }
            let headFailure = try await sandbox.send(.HEAD, "/flaky/head?failures=1&retryAfter=2")
            #expect(headFailure.status == 503 && headFailure.header("Retry-After") == "2" && headFailure.body.isEmpty)
            let headSuccess = try await sandbox.send(.HEAD, "/flaky/head?failures=1")
            #expect(headSuccess.status == 200 && headSuccess.body.isEmpty)
        }
    }

    @Test("failForMs=1000 fails exactly the requests that reach the server within a second of the key's first")
    func failureWindow() async throws {
        try await withSandbox { sandbox in
            var statuses: [Int] = []
            for _ in 0..<4 { statuses.append(try await sandbox.send(.GET, "/flaky/window?failForMs=1000").status) }
            try await Task.sleep(for: .milliseconds(1100))
            statuses.append(try await sandbox.send(.GET, "/flaky/window?failForMs=1000").status)
            #expect(statuses.first == 503 && statuses.last == 200, "\(statuses)")

            // Which fall in the window is the server's call on its clock: the stats show when each arrived.
            let stats = try await sandbox.json("/flaky/window/stats", as: FlakyStats.self)
            #expect(stats.attempts == 5 && stats.failures + stats.successes == 5)
            #expect(statuses == stats.attemptTimesMs.map { $0 < 1000 ? 503 : 200 }, "\(stats.attemptTimesMs)")
            #expect(stats.failures == stats.attemptTimesMs.filter { $0 < 1000 }.count)
        }
    }

    @Test("stats count attempts, failures and successes, with each attempt's time since the first")
    func stats() async throws {
        try await withSandbox { sandbox in
            for pause in [0, 100, 200] {
                try await Task.sleep(for: .milliseconds(pause))
                _ = try await sandbox.send(.GET, "/flaky/timed?failures=2")
            }
            let stats = try await sandbox.json("/flaky/timed/stats", as: FlakyStats.self)
            #expect(stats.attempts == 3 && stats.failures == 2 && stats.successes == 1)
            #expect(stats.attemptTimesMs.count == 3 && stats.attemptTimesMs[0] == 0)
            #expect(stats.attemptTimesMs[1] >= 100 && stats.attemptTimesMs[2] - stats.attemptTimesMs[1] >= 200)
            #expect(try await sandbox.json("/flaky/unused/stats", as: FlakyStats.self) == FlakyStats())

            try await sandbox.reset("/flaky/reset")
            #expect(try await sandbox.json("/flaky/timed/stats", as: FlakyStats.self) == FlakyStats())
            let fresh = try await sandbox.send(.GET, "/flaky/timed?failures=1")
            #expect(fresh.status == 503 && fresh.object["attempt"] as? Int == 1)
        }
    }

    @Test("delayMs holds every answer, failure or success; a wrong parameter answers 400")
    func delayAndValidation() async throws {
        try await withSandbox { sandbox in
            let start = ContinuousClock.now
            let failure = try await sandbox.send(.GET, "/flaky/slow?failures=1&delayMs=150")
            let success = try await sandbox.send(.GET, "/flaky/slow?failures=1&delayMs=150")
            #expect(failure.status == 503 && success.status == 200)
            #expect(ContinuousClock.now - start >= .milliseconds(300))
            for query in ["failures=-1", "status=200", "status=abc", "delayMs=x", "failForMs=-3"] {
                #expect(try await sandbox.send(.GET, "/flaky/bad?\(query)").status == 400, "\(query)")
            }
            #expect(try await sandbox.json("/flaky/bad/stats", as: FlakyStats.self).attempts == 0, "refused requests are not attempts")
        }
    }
}
