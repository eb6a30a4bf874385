import Courier
import CourierSandbox
import IntegrationTestSupport
import Testing

@testable import CourierConcurrency

/// Pagination of the sandbox's `/items` list.
@Suite("Pagination over sockets", .serialized)
struct PaginationSocketTests {
    @Test func tenThousandItemsInThousandItemPagesArriveInOrderWithProgressTo100Percent() async throws {
        try await withSandbox { sandbox, client in
            let reports = Mutexed<[PaginationProgress]>([])
            let paginator = Paginator<SampleItem>(pageSize: 1000, maxConcurrentPages: 4)
            let result = try await paginator.fetchAll(progress: { p in reports.mutate { $0.append(p) } }) { page in
                let answer = try await client.request(
                    sandbox.items(total: 10_000, offset: page.offset, limit: page.count, delayMs: 20), as: ItemPage.self)
                return Page(items: answer.items, total: answer.total)
            }
            #expect(result.items.count == 10_000)
            #expect(result.items.map(\.id) == Array(0..<10_000))
            #expect(result.items.last?.title == "Item 9999")
            #expect(result.isComplete)

            let progress = reports.value
            #expect(progress.last?.fractionCompleted == 1)
            #expect(progress.last?.itemsFetched == 10_000 && progress.last?.pagesFetched == 10)
            #expect(zip(progress, progress.dropFirst()).allSatisfy { $0.fractionCompleted < $1.fractionCompleted })

            let stats = try await sandbox.stats(client)
            #expect(stats.total == 10)
            #expect(stats.maxInFlight <= 4)
        }
    }

    @Test func countProbeThenPagesLikeRaon() async throws {
        try await withSandbox { sandbox, client in
            // Rows 1–1 tell the total, then every page in parallel.
            let total = try await client.request(sandbox.items(total: 2_345, offset: 0, limit: 1), as: ItemPage.self).total
            let run = Paginator<SampleItem>(pageSize: 1000).start(total: total) { page in
                try await client.request(sandbox.items(total: 2_345, offset: page.offset, limit: page.count), as: ItemPage.self).items
            }
            var fractions: [Double] = []
            for await p in run.progress { fractions.append(p.fractionCompleted) }
            let result = try await run.result
            #expect(result.items.map(\.id) == Array(0..<2_345))
            #expect(fractions.first == 0 && fractions.last == 1 && fractions.count == 4)
        }
    }

    @Test func aFailingPageFailsFastOrIsCollected() async throws {
        try await withSandbox { sandbox, client in
            // /items rejects limit > 1000, so the page asking for 1001 rows fails with 400.
            let fetch: @Sendable (PageRequest) async throws -> [SampleItem] = { page in
                let limit = page.index == 2 ? 1001 : page.count
                return try await client.request(sandbox.items(total: 5000, offset: page.offset, limit: limit), as: ItemPage.self).items
            }
            await #expect(throws: NetworkError.self) {
                _ = try await Paginator<SampleItem>(pageSize: 1000).fetchAll(total: 5000, page: fetch)
            }
            let collected = try await Paginator<SampleItem>(pageSize: 1000, onFailure: .collectFailures).fetchAll(total: 5000, page: fetch)
            #expect(collected.failures.map(\.page.index) == [2])
            #expect(collected.failures.first?.error.statusCode == 400)
            #expect(collected.items.map(\.id) == Array(0..<2000) + Array(3000..<5000))
        }
    }
}
