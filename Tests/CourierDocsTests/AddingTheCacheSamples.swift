// Mirrors: README.md
//
// README's "Adding the cache to a client" samples, line for line. Compiled only (the first one
// writes to the user's cache folder); CacheReadmeSampleTests runs the same setup on the sandbox.

import AlanAPI
import Courier
import CourierCache
import CourierSandbox
import Foundation
import HackerNewsAPI
import SeoulCultureAPI
import Testing

/// The endpoint the README sample reads: the sandbox's cache route with a 2 KB JSON document.
enum FeedAPI: Endpoint {
    case latest
    case latestAt(URL)
    case statsAt(URL)

    var baseURL: URL {
        switch self {
        case .latest: URL(string: "https://feeds.example.com")!
        case .latestAt(let url), .statsAt(let url): url
        }
    }
    var path: String {
        if case .statsAt = self { return "/cache/readme-feed/stats" }
        return "/cache/readme-feed"
    }
    var method: HTTPMethod { .get }
    var task: HTTPTask {
        if case .statsAt = self { return .requestPlain }
        return .requestParameters(["cc": "max-age=60", "json": 2048], encoding: .url)
    }
}

typealias Feed = CacheDocument

enum AddingTheCache {
    static func client(server: URL) async throws -> Feed {
        let storage = try DiskCacheStorage(directory: DiskCacheStorage.defaultDirectory(named: "my-app"), maxBytes: 50 << 20)
        let client = NetworkClient(configuration: .init(baseURL: server, middlewares: [
            RetryMiddleware(),
            CacheMiddleware(storage: storage, defaultPolicy: .preferCache),   // offline first: stored answers when the network fails
        ]))
        let feed = try await client.request(FeedAPI.latest, as: Feed.self)
        return feed
    }

    static func clientModules(storage: DiskCacheStorage, offline: Bool, apiKey: String, alan: AlanClient) -> (HackerNewsClient, SeoulCultureClient, CoinReport<ContinuousClock>) {
        let hackerNews = HackerNewsClient(baseURL: HackerNewsAPI.defaultBaseURL, configuration: .init(middlewares: [
            CacheMiddleware(storage: storage, defaultPolicy: offline ? .offline : .preferCache),
        ]))
        let seoul = SeoulCultureClient(key: apiKey, configuration: .init(middlewares: [CacheMiddleware(storage: storage)]))
        let report = CoinReport(coin: Coin(symbol: "BTC"), source: alan, cache: StorageCoinOverviewCache(storage: storage))
        return (hackerNews, seoul, report)
    }
}

@Suite("README: adding the cache to a client")
struct CacheReadmeSampleTests {
    @Test("the README's client setup serves the second read from the disk cache, and from it alone when the origin is gone")
    func readmeSetup() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-readme-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let sandbox = try await SandboxServer.start()
        let storage = try DiskCacheStorage(directory: folder, maxBytes: 50 << 20)
        let client = NetworkClient(configuration: .init(baseURL: sandbox.baseURL, middlewares: [
            RetryMiddleware(),
            CacheMiddleware(storage: storage, defaultPolicy: .preferCache),
        ]))
        let first = try await client.request(FeedAPI.latestAt(sandbox.baseURL), as: Feed.self)
        let second = try await client.request(FeedAPI.latestAt(sandbox.baseURL), as: Feed.self)
        #expect(first == second)
        #expect(first.items.count >= 25)
        let stats = try await NetworkClient().request(FeedAPI.statsAt(sandbox.baseURL), as: CacheStats.self)
        #expect(stats.hits == 1)
        await sandbox.stop()
        let offline = NetworkClient(configuration: .init(middlewares: [CacheMiddleware(storage: storage, defaultPolicy: .offline)]))
        #expect(try await offline.request(FeedAPI.latestAt(sandbox.baseURL), as: Feed.self) == first)
    }
}
