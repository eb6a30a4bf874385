#if Combine  // the `Combine` trait: Package.swift
import Courier
import CourierSandbox
import IntegrationTestSupport
import Foundation
import HackerNewsAPI
import Synchronization
import Testing
#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

/// Subscribes and waits for completion; the values and whether it failed.
func collect<T: Sendable>(_ publisher: AnyPublisher<T, any Error>) async -> (values: [T], failure: (any Error)?) {
    let state = Mutex<(values: [T], failure: (any Error)?)>(([], nil))
    var cancellable: AnyCancellable?
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        cancellable = publisher.sink(
            receiveCompletion: { completion in
                if case .failure(let error) = completion { state.withLock { $0.failure = error } }
                continuation.resume()
            },
            receiveValue: { value in state.withLock { $0.values.append(value) } }
        )
    }
    withExtendedLifetime(cancellable) {}
    return state.withLock { ($0.values, $0.failure) }
}

@Suite("the seed's Combine API gives the same results")
struct PublisherTests {
    @Test("story(id:): the story, or just finished for a missing, deleted or broken one")
    func story() async throws {
        try await withHackerNews { _, hackerNews in
            let found = await collect(hackerNews.publishers.story(id: 8863))
            #expect(found.values.map(\.id) == [8863])
            for id in [StandIn.missing, StandIn.deletedStory, 41_000_998] {
                let nothing = await collect(hackerNews.publishers.story(id: id))
                #expect(nothing.values.isEmpty && nothing.failure == nil)
            }
        }
    }

    @Test("mergedStories(ids:) delivers what the async version delivers")
    func merged() async throws {
        try await withHackerNews(maxConcurrent: 4) { _, hackerNews in
            let ids = [8863, StandIn.missing, 121_003, StandIn.deletedStory, 41_000_998, 192_327] + Array(41_000_100..<41_000_110)
            var viaAsync: Set<Int> = []
            for await story in hackerNews.mergedStories(ids: ids) { viaAsync.insert(story.id) }
            let viaCombine = await collect(hackerNews.publishers.mergedStories(ids: ids))
            #expect(Set(viaCombine.values.map(\.id)) == viaAsync)
            #expect(viaCombine.values.count == viaAsync.count)
        }
    }

    @Test("stories(): growing arrays ending with the same stories in the same order as stories(list:)")
    func stories() async throws {
        try await withHackerNews(maxStories: 30) { sandbox, hackerNews in
            var viaAsync: [Int] = []
            for try await stories in hackerNews.stories(list: .new) { viaAsync = stories.map(\.id) }
            let viaCombine = await collect(hackerNews.publishers.stories())
            #expect(viaCombine.failure == nil)
            #expect(viaCombine.values.map(\.count) == Array(1...viaCombine.values.count))
            #expect(viaCombine.values.last?.map(\.id) == viaAsync)
            let top = HackerNewsPublishers(client: hackerNews, list: .top)
            var topAsync: [Int] = []
            for try await stories in hackerNews.stories(list: .top) { topAsync = stories.map(\.id) }
            #expect(await collect(top.stories()).values.last?.map(\.id) == topAsync)
            let refusing = RefusingPort()
            let unreachable = HackerNewsClient(baseURL: refusing.baseURL.appendingPathComponent("hn/v0/")).publishers
            let failed = await collect(unreachable.stories())
            #expect((failed.failure as? NetworkError)?.unreachableAddress?.path == "/hn/v0/newstories.json")
            _ = sandbox
        }
    }
}
#endif  // Combine
