#if Combine  // the `Combine` trait: Package.swift
import Courier
import CourierCombine
import Foundation
#if canImport(Combine)
public import Combine
#else
public import OpenCombine
#endif

/// The seed's Combine API (Chapter 14, "News") over a ``HackerNewsClient``, with its exact
/// signatures: `story(id:)`, `mergedStories(ids:)`, `stories()`. Failures are `NetworkError`s
/// (typed `Error` as in the seed). Values arrive on a background thread: add
/// `.receive(on: DispatchQueue.main)` before touching UI state.
///
/// ```swift
/// let api = HackerNewsClient(baseURL: url).publishers
/// api.stories()
///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0.count) })
///     .store(in: &subscriptions)
/// ```
public struct HackerNewsPublishers: Sendable {
    /// The client the publishers call.
    public let client: HackerNewsClient
    /// The list ``stories()`` reads: `new`, as in the seed.
    public var list: StoryList

    /// Publishers over `client`.
    ///
    /// ```swift
    /// let api = HackerNewsPublishers(client: hackerNews, list: .top)
    /// ```
    public init(client: HackerNewsClient, list: StoryList = .new) {
        self.client = client
        self.list = list
    }

    /// One story, then finished; just finished (no value, no error) when it is missing,
    /// deleted, dead or cannot be fetched — the seed's `catch { _ in Empty() }`.
    ///
    /// ```swift
    /// api.story(id: 1000).sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// ```
    public func story(id: Int) -> AnyPublisher<Item, any Error> {
        let client = self.client
        return NetworkTaskPublisher { () async throws(NetworkError) -> Item? in try await client.story(id: id) }
            .compactMap { $0 }
            .catch { _ in Empty<Item, any Error>() }
            .eraseToAnyPublisher()
    }

    /// The first `maxStories` of `storyIDs`, at most `maxConcurrent` in flight, each emitted as
    /// it arrives; missing, deleted, dead and failed ones are skipped.
    ///
    /// ```swift
    /// api.mergedStories(ids: [1000, 1001, 1002]).collect().sink { print($0.count) }
    /// ```
    public func mergedStories(ids storyIDs: [Int]) -> AnyPublisher<Item, any Error> {
        let endpoints = storyIDs.prefix(client.maxStories).map { HackerNewsAPI.item(id: $0) }
        return client.network.mergedPublisher(for: endpoints, as: Item?.self, maxConcurrent: client.maxConcurrent, skipFailures: true)
            .compactMap { item in item.flatMap { $0.isAvailable ? $0 : nil } }
            .mapError { $0 as any Error }
            .eraseToAnyPublisher()
    }

    /// The ids of ``list``, then an ever-growing array of its stories each time one arrives,
    /// sorted as ``HackerNewsClient/stories(list:)`` sorts them (`new`: newest first). Fails
    /// with the seed's errors when the list cannot be had (see ``HackerNewsClient/ids(of:)``).
    ///
    /// ```swift
    /// api.stories().sink(receiveCompletion: { print($0) }, receiveValue: { print($0.map(\.title)) })
    /// ```
    public func stories() -> AnyPublisher<[Item], any Error> {
        let client = self.client
        let list = self.list
        let publishers = self
        return NetworkTaskPublisher { () async throws(NetworkError) -> [Int] in try await client.ids(of: list) }
            .mapError { $0 as any Error }
            .flatMap { ids in
                let ranks = Dictionary(ids.enumerated().map { ($1, $0 + 1) }, uniquingKeysWith: { first, _ in first })
                return publishers.mergedStories(ids: ids)
                    .map { RankedStory(rank: ranks[$0.id] ?? Int.max, item: $0) }
            }
            .scan([RankedStory]()) { $0 + [$1] }
            .map { $0.sorted(by: list.sortsByTime ? HackerNewsClient.newestFirst : HackerNewsClient.byRank).map(\.item) }
            .eraseToAnyPublisher()
    }
}

extension HackerNewsClient {
    /// The seed's Combine API over this client (``HackerNewsPublishers``), reading `new` in ``HackerNewsPublishers/stories()``.
    ///
    /// ```swift
    /// client.publishers.mergedStories(ids: ids).sink(receiveCompletion: { _ in }, receiveValue: { print($0) })
    /// ```
    public var publishers: HackerNewsPublishers { HackerNewsPublishers(client: self) }
}
#endif  // Combine
