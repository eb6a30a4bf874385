import Courier
import CourierSandbox
import Foundation
import HackerNewsAPI
import IntegrationTestSupport
import Testing

@Suite("stories(list:) over real sockets")
struct StoriesTests {
    @Test("new: a growing array, one story more each time, newest first, ending with every story")
    func growingNewestFirst() async throws {
        try await withHackerNews(maxStories: 40, maxConcurrent: 6) { _, hackerNews in
            let ids = Array(try await hackerNews.ids(of: .new).prefix(40))
            var snapshots: [[RankedStory]] = []
            for try await stories in hackerNews.stories(list: .new) { snapshots.append(stories) }
            #expect(snapshots.map(\.count) == Array(1...snapshots.count))
            for snapshot in snapshots {
                let times = snapshot.map { $0.time ?? 0 }
                #expect(times == times.sorted(by: >))
            }
            var expected: [Int] = []
            for id in ids {
                if let story = try await hackerNews.story(id: id) { expected.append(story.id) }
            }
            let last = try #require(snapshots.last)
            #expect(Set(last.map(\.id)) == Set(expected))
            #expect(last.count < ids.count, "the list's null, deleted and dead ids were skipped, not replaced")
            for story in last { #expect(ids[story.rank - 1] == story.id) }
        }
    }

    @Test("top keeps the list's rank order; skipped ids leave gaps in the ranks")
    func rankOrder() async throws {
        try await withHackerNews(maxStories: 50, maxConcurrent: 8) { _, hackerNews in
            var last: [RankedStory] = []
            for try await stories in hackerNews.stories(list: .top) {
                #expect(stories.map(\.rank) == stories.map(\.rank).sorted())
                last = stories
            }
            #expect(last.first?.id == 8863)
            #expect(last.first?.rank == 1)
            let ranks = Set(last.map(\.rank))
            #expect(!ranks.contains(7), "rank 7 answers null")
            #expect(!ranks.contains(11), "rank 11 is broken JSON")
            let ids = Array(try await hackerNews.ids(of: .top).prefix(50))
            var available = 0
            for id in ids where ((try? await hackerNews.story(id: id)) ?? nil) != nil { available += 1 }  // a broken item throws
            #expect(ranks.count == last.count)
            #expect(last.count == available)
            #expect(available < 50)
        }
    }

    @Test("cancelling the consumer closes the connections of the fetches in flight")
    func cancellingClosesConnections() async throws {
        try await withHackerNews(maxStories: 100, maxConcurrent: 8) { sandbox, hackerNews in
            // Items wait 30 s, far beyond the 10 s allowed for the disconnects below: a fetch that
            // was not cancelled cannot finish (and be mistaken for a cancelled one) in that time.
            try await setLatency(30_000, on: sandbox)
            let consumer = Task {
                var received = 0
                for try await _ in hackerNews.stories(list: .top) { received += 1 }
                return received
            }
            await eventually("8 item calls in flight") { try await stats(of: sandbox).inFlight == 8 }
            consumer.cancel()
            await eventually(timeout: .seconds(10), "the server saw the clients leave") {
                let now = try await stats(of: sandbox)
                return now.inFlight == 0 && now.disconnects == 8
            }
            let received = try? await consumer.value
            #expect((received ?? 0) == 0)
            let final = try await stats(of: sandbox)
            #expect(final.itemRequests == 8, "nothing more was started after the cancel")
        }
    }

    @Test("the seed's errors: an unreachable list names its address; garbage is invalidResponse")
    func seedErrors() async throws {
        let refusing = RefusingPort()
        let unreachable = HackerNewsClient(baseURL: refusing.baseURL.appendingPathComponent("hn/v0/"))
        do {
            for try await _ in unreachable.stories(list: .top) {}
            Issue.record("expected a failure")
        } catch let error as NetworkError {
            #expect(error.family == .transport)
            #expect(error.unreachableAddress?.absoluteString == "http://127.0.0.1:\(refusing.port)/hn/v0/topstories.json")
        }
        try await withSandbox { sandbox in
            let garbage = HackerNewsClient(baseURL: sandbox.baseURL.appendingPathComponent("echo/"))
            do {
                for try await _ in garbage.stories(list: .new) {}
                Issue.record("expected a failure")
            } catch let error as NetworkError {
                #expect(error == .invalidResponse)
            }
        }
    }
}
