import Courier
import IntegrationTestSupport
import Testing

@testable import CourierConcurrency

@Suite struct PaginatorTests {
    /// A fake paged API over 0..<total with random small delays, counting concurrency.
    struct FakeAPI: Sendable {
        let total: Int
        var failing: Set<Int> = []
        let gauge = ConcurrencyGauge()
        let calls = Recorder<PageRequest>()

        func rows(_ page: PageRequest) async throws -> [Int] {
            await calls.append(page)
            await gauge.enter()
            defer { Task { await gauge.leave() } }
            try await Task.sleep(for: .microseconds(Int.random(in: 0...3000)))
            if failing.contains(page.index) { throw NetworkError.serverError(500) }
            return Array(page.range.clamped(to: 0..<total))
        }
    }

    @Test func fetchesAllPagesInOrderWithinTheLimitAndReportsProgressTo100Percent() async throws {
        let api = FakeAPI(total: 10_000)
        let reports = Mutexed<[PaginationProgress]>([])
        let paginator = Paginator<Int>(pageSize: 1000, maxConcurrentPages: 3)
        let result = try await paginator.fetchAll(total: 10_000, progress: { p in reports.mutate { $0.append(p) } }) {
            try await api.rows($0)
        }
        #expect(result.items == Array(0..<10_000))
        #expect(result.isComplete && result.total == 10_000)
        #expect(await api.gauge.highest <= 3)
        #expect(await api.calls.count == 10)

        let progress = reports.value
        #expect(progress.count == 11)  // the initial 0 % and one per page
        #expect(progress.first?.fractionCompleted == 0)
        #expect(progress.last == PaginationProgress(pagesFetched: 10, pagesFailed: 0, totalPages: 10, itemsFetched: 10_000, totalItems: 10_000))
        #expect(progress.last?.fractionCompleted == 1 && progress.last?.isFinished == true)
        #expect(zip(progress, progress.dropFirst()).allSatisfy { $0.pagesDone + 1 == $1.pagesDone && $0.itemsFetched < $1.itemsFetched })
    }

    @Test func pagesCoverAPartialLastPageWithOneBasedRows() {
        let pages = PageRequest.pages(total: 2500, pageSize: 1000)
        #expect(pages.map(\.count) == [1000, 1000, 500])
        #expect(pages.map(\.firstRow) == [1, 1001, 2001])
        #expect(pages.map(\.lastRow) == [1000, 2000, 2500])
        #expect(PageRequest.pages(total: 0, pageSize: 1000).isEmpty)
    }

    @Test func theFirstPageCanTellTheTotal() async throws {
        let api = FakeAPI(total: 2500)
        let paginator = Paginator<Int>(pageSize: 1000)
        let result = try await paginator.fetchAll { page in
            Page(items: try await api.rows(page), total: 2500)
        }
        #expect(result.items == Array(0..<2500))
        let calls = await api.calls.entries
        #expect(calls.count == 3)
        #expect(calls.first?.index == 0)  // asked first, and not asked again
        #expect(Set(calls.map(\.index)) == [0, 1, 2])
    }

    @Test func failFastThrowsTheFirstPageErrorAndCancelsTheRest() async {
        let api = FakeAPI(total: 10_000, failing: [3])
        let paginator = Paginator<Int>(pageSize: 1000, maxConcurrentPages: 2, onFailure: .failFast)
        await #expect(throws: NetworkError.serverError(500)) {
            _ = try await paginator.fetchAll(total: 10_000) { try await api.rows($0) }
        }
        #expect(await api.calls.count < 10)
    }

    @Test func collectingReturnsWhatArrivedWithTheFailures() async throws {
        let api = FakeAPI(total: 10_000, failing: [3, 7])
        let reports = Mutexed<[PaginationProgress]>([])
        let paginator = Paginator<Int>(pageSize: 1000, maxConcurrentPages: 4, onFailure: .collectFailures)
        let result = try await paginator.fetchAll(total: 10_000, progress: { p in reports.mutate { $0.append(p) } }) {
            try await api.rows($0)
        }
        #expect(result.failures.map(\.page.index) == [3, 7])
        #expect(result.failures.allSatisfy { $0.error == .serverError(500) })
        #expect(!result.isComplete)
        #expect(result.items == Array(0..<3000) + Array(4000..<7000) + Array(8000..<10_000))
        let last = reports.value.last
        #expect(last?.pagesFailed == 2 && last?.pagesFetched == 8 && last?.fractionCompleted == 1)
    }

    @Test func cancellingTheCallerThrowsTaskCancelled() async {
        let gate = Gate()
        let paginator = Paginator<Int>(pageSize: 10, onFailure: .collectFailures)
        let task = Task {
            try await paginator.fetchAll(total: 100) { page -> [Int] in
                try await gate.wait()
                return Array(page.range)
            }
        }
        await eventually { await gate.waiting == 6 }
        task.cancel()
        await #expect(throws: NetworkError.taskCancelled) { try await task.value }
    }

    @Test func startStreamsProgressAndFinishes() async throws {
        let api = FakeAPI(total: 5000)
        let run = Paginator<Int>(pageSize: 1000).start(total: 5000) { try await api.rows($0) }
        var fractions: [Double] = []
        for await p in run.progress { fractions.append(p.fractionCompleted) }
        #expect(fractions == [0, 0.2, 0.4, 0.6, 0.8, 1])
        #expect(try await run.result.items.count == 5000)
    }

    @Test func anEmptyListIsComplete() async throws {
        let reports = Mutexed<[PaginationProgress]>([])
        let result = try await Paginator<Int>(pageSize: 1000).fetchAll(total: 0, progress: { p in reports.mutate { $0.append(p) } }) { _ in
            Issue.record("no page should be fetched")
            return []
        }
        #expect(result.items.isEmpty && result.isComplete)
        #expect(reports.value.map(\.fractionCompleted) == [1])
    }
}
