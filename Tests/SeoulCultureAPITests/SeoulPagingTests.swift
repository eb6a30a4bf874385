import Courier
import CourierConcurrency
import CourierSandbox
import Foundation
import IntegrationTestSupport
import SeoulCultureAPI
import Testing

extension SeoulSuite {
    @Suite("allPrograms: probe, pages in parallel, retry, latest wins")
    struct SeoulPagingTests {
        @Test("3,512 rows load with exactly 1 + ⌈N/1000⌉ = 5 requests, merged, filtered to not-over, sorted")
        func loadsEverything() async throws {
            try await withSeoulSandbox { sandbox in
                // One load (a second full one costs the suites running beside it their timing bounds).
                let current = try await sandbox.seoul(today: anchorDay).allPrograms()
                let stats = try await sandbox.seoulStats()
                #expect(stats.requests == 5)
                #expect(Set(stats.ranges) == ["1-1", "1-1000", "1001-2000", "2001-3000", "3001-3512"])
                #expect(Set(current.map(\.id)).count == current.count)
                #expect(current.count > 100 && current.count < 3_512)
                #expect(current.allSatisfy { $0.endDate >= anchorDay })
                #expect(
                    zip(current, current.dropFirst()).allSatisfy {
                        $0.startDate < $1.startDate || ($0.startDate == $1.startDate && $0.title <= $1.title)
                    })
            }
        }

        @Test("an exact multiple of 1,000 rows: 1 + 3 requests, no empty fourth page", arguments: [1_000])
        func exactMultiple(rows: Int) async throws {
            try await withSeoulSandbox { sandbox in
                try await sandbox.seoulControl(["rows": rows])
                let programs = try await sandbox.seoul(today: longAgo).allPrograms()
                #expect(programs.count == rows)
                #expect(try await sandbox.seoulStats().requests == 1 + rows / 1000)
            }
        }

        @Test("no rows at all: the probe's INFO-200 is an empty list after one request")
        func empty() async throws {
            try await withSeoulSandbox { sandbox in
                try await sandbox.seoulControl(["rows": 0])
                #expect(try await sandbox.seoul().allPrograms().isEmpty)
                #expect(try await sandbox.seoulStats().requests == 1)
            }
        }

        @Test("progress is reported per page and ends finished")
        func progress() async throws {
            try await withSeoulSandbox { sandbox in
                // A small set in 100-row pages keeps this (and the suites running beside it) cheap.
                try await sandbox.seoulControl(["rows": 350])
                let reports = Recorder<PaginationProgress>()
                _ = try await sandbox.seoul(pageSize: 100).allPrograms { progress in Task { await reports.append(progress) } }
                #expect(await eventually { await reports.count == 5 })
                let entries = await reports.entries.sorted { $0.pagesDone < $1.pagesDone }
                #expect(entries.map(\.pagesDone) == [0, 1, 2, 3, 4])
                #expect(entries.last?.isFinished == true && entries.last?.itemsFetched == 350)
            }
        }

        @Test("a page that fails once with 503 is retried and the load succeeds")
        func transientFailureRetried() async throws {
            try await withSeoulSandbox { sandbox in
                try await sandbox.seoulControl(["failStart": 201, "failTimes": 1, "rows": 350])
                let programs = try await sandbox.seoul(today: longAgo, pageSize: 100).allPrograms()
                #expect(programs.count == 350)
                let stats = try await sandbox.seoulStats()
                #expect(stats.injectedFailures == 1)
                #expect(stats.requests == 6)
            }
        }

        @Test("a page that still fails after retries fails the whole load with a clear error, never a partial list")
        func persistentFailure() async throws {
            try await withSeoulSandbox { sandbox in
                try await sandbox.seoulControl(["failStart": 201, "rows": 350])
                do throws(SeoulAPIError) {
                    let programs = try await sandbox.seoul(pageSize: 100).allPrograms()
                    Issue.record("got \(programs.count) programs")
                } catch {
                    guard case .pageFailed(let page, let pages, let first, let last, let reason) = error else {
                        Issue.record("got \(error)")
                        return
                    }
                    #expect(page == 3 && pages == 4 && first == 201 && last == 300)
                    #expect(reason == .network(.serviceUnavailable(503)))
                    #expect(error.description.contains("Page 3 of 4 (rows 201–300)"))
                }
                // Three attempts in all, unless a loaded machine made an attempt so slow that the retry
                // middleware saw another one would overrun the call's deadline (it then stops early).
                #expect((1...3).contains(try await sandbox.seoulStats().injectedFailures))
            }
        }

        @Test("an ERROR-600 page fails the load with its code")
        func serviceErrorPage() async throws {
            try await withSeoulSandbox { sandbox in
                try await sandbox.seoulControl(["failStart": 101, "failWith": "ERROR-600", "rows": 350])
                do throws(SeoulAPIError) {
                    _ = try await sandbox.seoul(pageSize: 100).allPrograms()
                    Issue.record("the load succeeded")
                } catch {
                    guard case .pageFailed(2, 4, _, _, .service("ERROR-600", _)) = error else {
                        Issue.record("got \(error)")
                        return
                    }
                }
            }
        }

        @Test("a refresh while a load runs cancels it: the first caller sees a cancellation, the server the disconnect")
        func refreshCancelsRunning() async throws {
            try await withSeoulSandbox { sandbox in
                // The first load's probe waits 60 s on the server, so it is surely still there when
                // the refresh comes, however slow a loaded machine is; answers after it are quick.
                try await sandbox.seoulControl(["latencyMs": 60_000, "rows": 350])
                let seoul = sandbox.seoul(today: longAgo, pageSize: 100)
                let first = Task { try await seoul.refresh() }
                #expect(await eventually(timeout: .seconds(60)) { (try await sandbox.seoulStats()).inFlight >= 1 })
                try await sandbox.seoulControl(["latencyMs": 0, "rows": 350])
                let second = try await seoul.refresh()
                #expect(second.count == 350)
                do {
                    let stale = try await first.value
                    Issue.record("the superseded load delivered \(stale.count) programs")
                } catch let error as SeoulAPIError {
                    #expect(error.isCancellation)
                }
                #expect(await eventually(timeout: .seconds(60)) { (try await sandbox.seoulStats()).disconnects >= 1 })
            }
        }
    }
}
