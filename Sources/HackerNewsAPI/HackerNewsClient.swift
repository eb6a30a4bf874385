public import Courier
import CourierConcurrency
public import Foundation

#if canImport(CourierAsyncHTTPClient)
import CourierAsyncHTTPClient
#endif

/// The seed's Hacker News client in async/await: `story(id:)`, `mergedStories(ids:)`,
/// `stories(list:)`, plus the comment tree of an item and users.
///
/// Every call goes through a Courier `NetworkProviding` (retries, logging and the sandbox
/// binding come from its configuration). Many items are fetched at once, at most
/// ``maxConcurrent`` at a time.
///
/// ```swift
/// let hackerNews = HackerNewsClient(baseURL: URL(string: "http://127.0.0.1:8080/hn/v0/")!)
/// for try await stories in hackerNews.stories(list: .new) {
///     model.stories = stories          // an ever-growing array, newest first
/// }
/// ```
public struct HackerNewsClient: Sendable {
    /// What sends the calls.
    public let network: any NetworkProviding
    /// The API root the calls go to (for error messages); the network's base URL decides.
    public let apiRoot: URL
    /// How many ids of a list ``stories(list:)`` and ``mergedStories(ids:)`` fetch (the seed's `maxStories`).
    public var maxStories: Int
    /// Items fetched at once (at least 1).
    public var maxConcurrent: Int

    /// A client over `network`; its `NetworkClient.Configuration.baseURL` (if it is a
    /// `NetworkClient`) says where the API lives, else the official API.
    ///
    /// ```swift
    /// let hackerNews = HackerNewsClient(network: NetworkClient(configuration: .init(middlewares: [RetryMiddleware()])))
    /// ```
    public init(network: any NetworkProviding = NetworkClient(), maxStories: Int = 500, maxConcurrent: Int = 16) {
        self.network = network
        self.apiRoot = (network as? NetworkClient)?.configuration.baseURL ?? HackerNewsAPI.defaultBaseURL
        self.maxStories = max(0, maxStories)
        self.maxConcurrent = max(1, maxConcurrent)
    }

    /// A client for the API at `baseURL` — its root **including the version path**, e.g.
    /// `https://hacker-news.firebaseio.com/v0/` or the sandbox's `http://127.0.0.1:8080/hn/v0/`.
    ///
    /// Above 64 at once (the shared AsyncHTTPClient transport's connections per host) it gets
    /// its own transport with a pool of `maxConcurrent` connections, so the bound is the real one.
    ///
    /// ```swift
    /// let hackerNews = HackerNewsClient(baseURL: sandbox.baseURL.appendingPathComponent("hn/v0/"))
    /// ```
    public init(baseURL: URL, maxStories: Int = 500, maxConcurrent: Int = 16, configuration: NetworkClient.Configuration = .init()) {
        var configuration = configuration
        configuration.baseURL = baseURL
        #if canImport(CourierAsyncHTTPClient)
        if maxConcurrent > HTTPClientTransport.Settings().connectionsPerHost, configuration.transport is HTTPClientTransport {
            var settings = HTTPClientTransport.Settings()
            settings.connectionsPerHost = maxConcurrent
            configuration.transport = HTTPClientTransport(settings: settings)
        }
        #endif
        self.init(network: NetworkClient(configuration: configuration), maxStories: maxStories, maxConcurrent: maxConcurrent)
    }

    /// The item `id` as the API has it (deleted and dead ones included), or nil when the API
    /// answers `null`.
    ///
    /// ```swift
    /// let poll = try await hackerNews.item(id: 126809)
    /// ```
    public func item(id: Int) async throws(NetworkError) -> Item? {
        try await network.request(HackerNewsAPI.item(id: id), as: Item?.self)
    }

    /// The story `id`, or nil — not an error — when it is missing, deleted or dead.
    /// Transport and status errors are thrown.
    ///
    /// ```swift
    /// if let story = try await hackerNews.story(id: 8863) { print(story.title ?? "") }
    /// ```
    public func story(id: Int) async throws(NetworkError) -> Item? {
        guard let item = try await item(id: id), item.isAvailable else { return nil }
        return item
    }

    /// The ids of `list`, in its order (an empty list when the API answers `null`).
    ///
    /// Errors are the seed's: a transport failure is `networkError` naming the list's address
    /// (`NetworkError.unreachableAddress`); an answer that is not a list of ids is
    /// `NetworkError.invalidResponse`.
    ///
    /// ```swift
    /// let top = try await hackerNews.ids(of: .top)
    /// ```
    public func ids(of list: StoryList) async throws(NetworkError) -> [Int] {
        let endpoint = HackerNewsAPI.list(list)
        do {
            return try await network.request(endpoint, as: [Int]?.self) ?? []
        } catch {
            throw .storyList(error, url: apiRoot.appendingPathComponent(endpoint.pathSegments.joined(separator: "/")))
        }
    }

    /// The user `name`, or nil when the API answers `null` (no such user).
    ///
    /// ```swift
    /// let pg = try await hackerNews.user(id: "pg")
    /// ```
    public func user(id name: String) async throws(NetworkError) -> User? {
        try await network.request(HackerNewsAPI.user(id: name), as: User?.self)
    }

    /// The largest item id so far.
    ///
    /// ```swift
    /// let newest = try await hackerNews.maxItem()
    /// ```
    public func maxItem() async throws(NetworkError) -> Int {
        try await network.request(HackerNewsAPI.maxItem, as: Int.self)
    }

    /// Recently changed items and profiles.
    ///
    /// ```swift
    /// let changed = try await hackerNews.updates().items
    /// ```
    public func updates() async throws(NetworkError) -> Updates {
        try await network.request(HackerNewsAPI.updates, as: Updates.self)
    }

    /// The first ``maxStories`` of `ids` fetched at most ``maxConcurrent`` at once, each story
    /// delivered as it arrives (completion order). Missing, deleted, dead and failed items are
    /// skipped; the sequence never throws. Ending the iteration (or cancelling its task)
    /// cancels the fetches in flight.
    ///
    /// ```swift
    /// for await story in hackerNews.mergedStories(ids: [1000, 1001, 1002]) { print(story.title ?? "") }
    /// ```
    public func mergedStories(ids: [Int]) -> some AsyncSequence<Item, Never> {
        rankedStories(ids: ids).map(\.item)
    }

    /// Like ``mergedStories(ids:)``, each story with its 1-based position in `ids`.
    func rankedStories(ids: [Int]) -> AsyncCompactMapSequence<AsyncStream<IndexedResult<Int, Item?>>, RankedStory> {
        let client = self
        return Array(ids.prefix(maxStories))
            .mergedResults(limit: maxConcurrent) { id in try await client.story(id: id) }
            .compactMap { finished in
                guard case .success(let item?) = finished.result else { return nil }
                return RankedStory(rank: finished.index + 1, item: item)
            }
    }

    /// `list`'s ids, then an ever-growing array of its stories, delivered each time one
    /// arrives — the seed's `stories()`. Sorted as the list calls for: `new` newest first by
    /// `time`, the others in the list's rank order. The last array holds every story that
    /// could be fetched of the first ``maxStories`` ids (skipped ones are not replaced).
    ///
    /// The stream fails only when the list itself cannot be had (see ``ids(of:)`` for the
    /// seed's errors), always with a `NetworkError`. Ending the iteration, or cancelling the
    /// consuming task, cancels the fetches in flight (their connections close).
    ///
    /// ```swift
    /// for try await stories in hackerNews.stories(list: .new) { model.stories = stories }
    /// ```
    public func stories(list: StoryList = .new) -> AsyncThrowingStream<[RankedStory], any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: [RankedStory].self)
        let client = self
        let order: @Sendable (RankedStory, RankedStory) -> Bool = list.sortsByTime ? Self.newestFirst : Self.byRank
        let producer = Task {
            do {
                let ids = try await client.ids(of: list)
                for await snapshot in client.rankedStories(ids: ids).accumulated(sortedBy: order) {
                    continuation.yield(snapshot.array)
                }
                continuation.finish(throwing: Task.isCancelled ? NetworkError.taskCancelled : nil)
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in producer.cancel() }
        return stream
    }

    @Sendable static func byRank(_ a: RankedStory, _ b: RankedStory) -> Bool { a.rank < b.rank }

    @Sendable static func newestFirst(_ a: RankedStory, _ b: RankedStory) -> Bool {
        let (timeA, timeB) = (a.item.time ?? 0, b.item.time ?? 0)
        return timeA != timeB ? timeA > timeB : a.rank < b.rank
    }
}
