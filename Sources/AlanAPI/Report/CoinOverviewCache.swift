import Courier
import CourierCache
public import Foundation
public import Logging

/// Where a ``CoinReport`` keeps overviews between runs (an overview changes rarely). A protocol,
/// so an HTTP cache's storage can take its place (``StorageCoinOverviewCache``).
public protocol CoinOverviewCache: Sendable {
    /// The stored overview of `coin`, nil when there is none or it is too old.
    func overview(for coin: Coin) -> CoinOverview?
    /// Stores `overview` for `coin`.
    func store(_ overview: CoinOverview, for coin: Coin)
}

/// An overview cache of small JSON files, one per coin, valid for ``lifetime`` (a day).
/// Defaults to `$XDG_CACHE_HOME/courier/alan-overview/` (or `~/.cache/courier/alan-overview/`).
///
/// ```swift
/// let cache = FileCoinOverviewCache()                         // the user's cache directory
/// let forTests = FileCoinOverviewCache(directory: temporary)  // anywhere else
/// ```
public struct FileCoinOverviewCache: CoinOverviewCache {
    /// The folder holding the files.
    public let directory: URL
    /// How long a stored overview is used.
    public var lifetime: TimeInterval
    /// The current time (injectable for tests).
    public var now: @Sendable () -> Date
    /// Where unreadable or unwritable files are reported.
    public var logger: Logger

    /// A cache in `directory` (default: ``defaultDirectory(environment:)``) whose entries live `lifetime` seconds.
    public init(
        directory: URL = FileCoinOverviewCache.defaultDirectory(), lifetime: TimeInterval = 24 * 60 * 60,
        now: @escaping @Sendable () -> Date = { Date() }, logger: Logger = Logger(label: "courier.alan.cache")
    ) {
        self.directory = directory
        self.lifetime = lifetime
        self.now = now
        self.logger = logger
    }

    /// `$XDG_CACHE_HOME/courier/alan-overview`, or `~/.cache/courier/alan-overview` when it is
    /// unset or not absolute (as the XDG base directory spec says).
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        DiskCacheStorage.defaultDirectory(named: "alan-overview", environment: environment)
    }

    struct Entry: Codable {
        var savedAt: Date
        var overview: CoinOverview
    }

    /// The stored overview when its file is readable and younger than ``lifetime``.
    public func overview(for coin: Coin) -> CoinOverview? {
        guard let data = try? Data(contentsOf: file(for: coin)) else { return nil }
        guard let entry = try? JSONDecoder().decode(Entry.self, from: data) else {
            logger.warning("unreadable overview cache file for \(coin.symbol); ignoring it")
            return nil
        }
        let age = now().timeIntervalSince(entry.savedAt)
        guard age >= 0, age < lifetime else { return nil }
        return entry.overview
    }

    /// Writes the overview with the current time (atomically); a failure is logged, not thrown.
    public func store(_ overview: CoinOverview, for coin: Coin) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            try encoder.encode(Entry(savedAt: now(), overview: overview)).write(to: file(for: coin), options: .atomic)
        } catch {
            logger.warning("could not store the overview of \(coin.symbol) in \(directory.path): \(error.localizedDescription)")
        }
    }

    /// The file of `coin`: its symbol, letters and digits only.
    func file(for coin: Coin) -> URL {
        let name = coin.symbol.filter { $0.isLetter || $0.isNumber }
        return directory.appendingPathComponent("\(name.isEmpty ? "_" : name).json")
    }
}
