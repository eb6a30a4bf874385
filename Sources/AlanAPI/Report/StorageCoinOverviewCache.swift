import Courier
public import CourierCache
public import Foundation
public import Logging

/// An overview cache in an HTTP cache's storage (a `DiskCacheStorage` or `MemoryCacheStorage`):
/// each overview is kept as a stored JSON response with `Cache-Control: max-age` of
/// ``lifetime``, so the disk store's guarantees hold for it too — atomic writes, a damaged entry
/// is a miss, several processes may share the folder, the folder stays within its byte bound.
///
/// ```swift
/// let storage = try DiskCacheStorage(directory: DiskCacheStorage.defaultDirectory(named: "alan"))
/// let report = CoinReport(coin: Coin(symbol: "BTC"), source: alan, cache: StorageCoinOverviewCache(storage: storage))
/// ```
public struct StorageCoinOverviewCache: CoinOverviewCache {
    /// Where the overviews are kept.
    public let storage: any CacheStorage
    /// How long a stored overview is used, in seconds (a day by default).
    public var lifetime: TimeInterval
    /// The current time (injectable for tests).
    public var now: @Sendable () -> Date
    /// Where unreadable entries are reported.
    public var logger: Logger

    /// A cache over `storage` whose overviews live `lifetime` seconds.
    public init(
        storage: any CacheStorage, lifetime: TimeInterval = 24 * 60 * 60,
        now: @escaping @Sendable () -> Date = { Date() }, logger: Logger = Logger(label: "courier.alan.cache")
    ) {
        self.storage = storage
        self.lifetime = lifetime
        self.now = now
        self.logger = logger
    }

    /// The stored overview of `coin` while it is fresh.
    public func overview(for coin: Coin) -> CoinOverview? {
        guard let entry = storage.variants(for: Self.key(coin)).first, entry.isFresh(at: now()) else { return nil }
        guard let overview = try? JSONDecoder().decode(CoinOverview.self, from: entry.body) else {
            logger.warning("unreadable stored overview of \(coin.symbol); ignoring it")
            return nil
        }
        return overview
    }

    /// Stores `overview` as a response fresh for ``lifetime`` from now.
    public func store(_ overview: CoinOverview, for coin: Coin) {
        guard let body = try? JSONEncoder().encode(overview) else { return }
        let time = now()
        let fields: [CachedResponse.Field] = [
            .init(name: "Cache-Control", value: "max-age=\(Int(max(0, lifetime)))"),
            .init(name: "Content-Type", value: "application/json"),
        ]
        let entry = CachedResponse(url: Self.key(coin), fields: fields, body: body, requestTime: time, responseTime: time)
        storage.store([entry], for: Self.key(coin))
    }

    /// The storage key of `coin`'s overview (a URN, so it never meets a real URL's entry).
    static func key(_ coin: Coin) -> String {
        "urn:courier:alan-overview:\(coin.symbol.uppercased())"
    }
}
