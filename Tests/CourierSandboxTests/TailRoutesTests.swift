import AsyncHTTPClient
import Foundation
import IntegrationTestSupport
import Testing

@testable import CourierSandbox

/// `/tail/{key}`: a latency tail, and the disconnects of the copies a hedging client cancels.
@Suite("Sandbox: tail routes for hedging", .tags(.timing))
struct TailRoutesTests {
    @Test("p=0 is never slow: twenty requests answer after fastMs, not slowMs, each counted fast and completed")
    func neverSlow() async throws {
        try await withSandbox { sandbox in
            for number in 1...20 {
                // A slow one would wait a minute: the 20 s timeout turns it into a failure.
                let answer = try await sandbox.send(.GET, "/tail/calm?p=0&slowMs=60000", timeout: .seconds(20))
                #expect(answer.status == 200 && answer.header("Connection") == "close")
                #expect(answer.object["key"] as? String == "calm" && answer.object["request"] as? Int == number)
                #expect(answer.object["slow"] as? Bool == false && answer.object["waitMs"] as? Int == 0)
            }
            let stats = try await sandbox.json("/tail/calm/stats", as: TailStats.self)
            #expect(stats == TailStats(requests: 20, slow: 0, fast: 20, completed: 20, disconnected: 0))
        }
    }

    @Test("p=1 is always slow: each request waits slowMs before its answer; HEAD too, without a body")
    func alwaysSlow() async throws {
        try await withSandbox { sandbox in
            for number in 1...3 {
                let start = ContinuousClock.now
                let answer = try await sandbox.send(.GET, "/tail/late?p=1&slowMs=300&fastMs=0")
                #expect(ContinuousClock.now - start >= .milliseconds(300))
                #expect(answer.status == 200 && answer.object["request"] as? Int == number)
                #expect(answer.object["slow"] as? Bool == true && answer.object["waitMs"] as? Int == 300)
            }
            let start = ContinuousClock.now
            let head = try await sandbox.send(.HEAD, "/tail/late?p=1&slowMs=300")
            #expect(ContinuousClock.now - start >= .milliseconds(300))
            #expect(head.status == 200 && head.body.isEmpty)
            let stats = try await sandbox.json("/tail/late/stats", as: TailStats.self)
            #expect(stats == TailStats(requests: 4, slow: 4, fast: 0, completed: 4, disconnected: 0))
        }
    }

    @Test("a client that goes away during a slow wait is counted disconnected, not completed, long before the wait ends")
    func disconnect() async throws {
        try await withSandbox { sandbox in
            let waiting = Task { try await sandbox.send(.GET, "/tail/hedged?p=1&slowMs=60000") }
            let entered = await eventually { try await sandbox.json("/tail/hedged/stats", as: TailStats.self).requests == 1 }
            #expect(entered)
            waiting.cancel()
            let seen = await eventually(timeout: .seconds(10)) {
                try await sandbox.json("/tail/hedged/stats", as: TailStats.self).disconnected == 1
            }
            #expect(seen, "no disconnect within 10 s of the client leaving (the wait is 60 s)")
            let stats = try await sandbox.json("/tail/hedged/stats", as: TailStats.self)
            #expect(stats == TailStats(requests: 1, slow: 1, fast: 0, completed: 0, disconnected: 1))
            let answer = try? await waiting.value
            #expect(answer == nil, "the cancelled request got no answer")
        }
    }

    @Test("numbers saturate into their ranges: p=7 is 1, a negative wait is 0; a value that is not a number is the default")
    func saturation() async throws {
        try await withSandbox { sandbox in
            let clamped = try await sandbox.send(.GET, "/tail/clamp?p=7&slowMs=-5&fastMs=60000")
            #expect(clamped.status == 200 && clamped.object["slow"] as? Bool == true && clamped.object["waitMs"] as? Int == 0)
            let never = try await sandbox.send(.GET, "/tail/clamp?p=-1&fastMs=-3&slowMs=60000", timeout: .seconds(20))
            #expect(never.status == 200 && never.object["slow"] as? Bool == false && never.object["waitMs"] as? Int == 0)
            let defaulted = try await sandbox.send(.GET, "/tail/clamp?p=1&slowMs=5ms")
            #expect(defaulted.status == 200 && defaulted.object["waitMs"] as? Int == 1000, "slowMs=5ms is the default, 1000")
            let nan = try await sandbox.send(.GET, "/tail/clamp?p=nan&slowMs=0&fastMs=0")
            #expect(nan.status == 200 && nan.object["waitMs"] as? Int == 0)
        }
        let range = 0...60_000
        for (text, expected) in [
            ("99999999999999999999", 60_000), ("60001", 60_000), ("-5", 0), ("+7", 7), ("0", 0), ("1234", 1234),
            ("1e3", -1), ("0x10", -1), ("", -1), ("-", -1), ("5ms", -1), (" 5", -1), ("١٢", -1),
        ] {
            #expect(QueryReader.saturating(text, in: range, default: -1) == expected, "\(text)")
        }
        #expect(QueryReader.saturating(nil, in: range, default: 1000) == 1000)
        #expect(QueryReader.saturating("700", in: 500...599, default: 503) == 599)
        #expect(QueryReader.saturating("42", in: 500...599, default: 503) == 500)
    }

    @Test("reset forgets every key, and a request that was waiting across the reset is not counted when it ends")
    func reset() async throws {
        try await withSandbox { sandbox in
            _ = try await sandbox.send(.GET, "/tail/r?p=0")
            let waiting = Task { try await sandbox.send(.GET, "/tail/r?p=1&slowMs=1500") }
            let entered = await eventually { try await sandbox.json("/tail/r/stats", as: TailStats.self).requests == 2 }
            #expect(entered)
            try await sandbox.reset("/tail/reset")
            #expect(try await sandbox.json("/tail/r/stats", as: TailStats.self) == TailStats())
            let answer = try await waiting.value
            #expect(answer.status == 200 && answer.object["request"] as? Int == 2)
            #expect(try await sandbox.json("/tail/r/stats", as: TailStats.self) == TailStats(), "its end is not counted")
            let fresh = try await sandbox.send(.GET, "/tail/r?p=0")
            #expect(fresh.object["request"] as? Int == 1)
            #expect(try await sandbox.json("/tail/r/stats", as: TailStats.self) == TailStats(requests: 1, fast: 1, completed: 1))
        }
    }
}
