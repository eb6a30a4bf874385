import Courier
import CourierSandbox
import Foundation
import HackerNewsAPI
import IntegrationTestSupport
import Testing

@Suite("mergedStories over real sockets")
struct MergedStoriesTests {
    @Test("never more requests in flight than the bound (counted by the server), all stories delivered")
    func bounded() async throws {
        try await withHackerNews(maxConcurrent: 4) { sandbox, hackerNews in
            try await setLatency(40, on: sandbox)
            let ids = Array(41_000_100..<41_000_124)
            var delivered: [Int] = []
            for await story in hackerNews.mergedStories(ids: ids) { delivered.append(story.id) }
            let stats = try await stats(of: sandbox)
            #expect(stats.itemRequests == 24)
            #expect(stats.maxInFlight <= 4)
            #expect(stats.maxInFlight >= 2, "fetches ran concurrently")
            let expected = ids.filter { $0 % 50 != 19 && $0 % 50 != 29 }  // minus the deleted and dead ones
            #expect(Set(delivered) == Set(expected))
            #expect(delivered.count == expected.count)
        }
    }

    @Test("null, deleted, dead and broken items are skipped without ending the stream")
    func skipsFailures() async throws {
        try await withHackerNews { _, hackerNews in
            let ids = [8863, StandIn.missing, 121_003, StandIn.deletedStory, 41_000_998, StandIn.deadStory, 192_327]
            var delivered: [Int] = []
            for await story in hackerNews.mergedStories(ids: ids) { delivered.append(story.id) }
            #expect(Set(delivered) == [8863, 121_003, 192_327])
        }
    }

    @Test("only the first maxStories ids are fetched")
    func firstMaxStories() async throws {
        try await withHackerNews(maxStories: 3) { sandbox, hackerNews in
            var delivered: [Int] = []
            for await story in hackerNews.mergedStories(ids: [8863, 121_003, 192_327, 126_809, 41_000_001]) { delivered.append(story.id) }
            #expect(Set(delivered) == [8863, 121_003, 192_327])
            let served = try await stats(of: sandbox)
            #expect(served.itemRequests == 3)
        }
    }
}
