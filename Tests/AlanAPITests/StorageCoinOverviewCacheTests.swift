import AlanAPI
import Courier
import CourierCache
import CourierSandbox
import CourierTesting
import Foundation
import IntegrationTestSupport
import Testing

/// The coin report's overview kept in an HTTP cache's disk storage.
@Suite("Coin overview in a disk cache storage")
struct StorageCoinOverviewCacheTests {
    @Test("a second report (another process's store on the same folder) asks the sandbox only for weekly and today")
    func secondReportSkipsTheOverview() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("alan-disk-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try await withSandbox { sandbox throws in
            let alan = alanClient(sandbox)
            let first = CoinReport(
                coin: Coin(symbol: "BTC"), source: alan,
                cache: StorageCoinOverviewCache(storage: try DiskCacheStorage(directory: directory)), clock: RecordingClock())
            await first.run()
            #expect(!first.overviewFromCache)
            #expect(try await stats(sandbox).questions == 3)

            // A new store over the folder: what a second run of `courier coin` sees.
            let again = StorageCoinOverviewCache(storage: try DiskCacheStorage(directory: directory))
            let second = CoinReport(coin: Coin(symbol: "BTC"), source: alan, cache: again, clock: RecordingClock())
            await second.run()
            #expect(second.overviewFromCache)
            #expect(second.snapshot.overview.value == first.snapshot.overview.value)
            #expect(try await stats(sandbox).questions == 5)  // weekly and today only
        }
    }

    @Test("an overview older than its lifetime, another coin's, or a damaged entry is not used")
    func staleOtherOrDamaged() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("alan-disk-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = try DiskCacheStorage(directory: directory)
        let overview = CoinOverview(symbol: "ETH", websiteURL: "https://ethereum.org", launchDate: "2015.07.", description: "A platform.")
        let cache = StorageCoinOverviewCache(storage: storage, lifetime: 3600)
        cache.store(overview, for: Coin(symbol: "eth"))
        #expect(cache.overview(for: Coin(symbol: "ETH")) == overview)
        #expect(cache.overview(for: Coin(symbol: "BTC")) == nil)
        let later = StorageCoinOverviewCache(storage: storage, lifetime: 3600, now: { Date().addingTimeInterval(3601) })
        #expect(later.overview(for: Coin(symbol: "ETH")) == nil)

        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil).filter { $0.pathExtension == "entry" }
        let file = try #require(files.first)
        var bytes = try Data(contentsOf: file)
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: file)
        #expect(cache.overview(for: Coin(symbol: "ETH")) == nil)
    }

    @Test("the shared cache folder follows XDG_CACHE_HOME, else ~/.cache")
    func defaultDirectory() {
        #expect(
            DiskCacheStorage.defaultDirectory(named: "hn", environment: ["XDG_CACHE_HOME": "/tmp/xdg", "HOME": "/home/u"]).path
                == "/tmp/xdg/courier/hn")
        #expect(
            DiskCacheStorage.defaultDirectory(named: "hn", environment: ["XDG_CACHE_HOME": "relative", "HOME": "/home/u"]).path
                == "/home/u/.cache/courier/hn")
    }
}
