import Foundation
import Testing

@testable import CourierCache

/// ``DiskCacheStorage``'s writes off the caller's path: a 304's update waits for the writer, is
/// answered meanwhile, and is on disk once ``DiskCacheStorage/flush()`` returns; a later store
/// or removal of the same key wins over an update still waiting.
extension DiskCacheStorageTests {
    @Test("an update written soon is answered at once, and is on disk for another store once flushed")
    func updateIsFlushed() async throws {
        let directory = temporaryCacheDirectory()
        let storage = try DiskCacheStorage(directory: directory)
        let first = entry("k", bytes: 10)
        let update = entry("k", bytes: 20)
        storage.store([first], for: "k")
        storage.storeSoon([update], for: "k")
        #expect(storage.variants(for: "k") == [update])
        await storage.flush()
        #expect(try DiskCacheStorage(directory: directory).variants(for: "k") == [update])
    }

    @Test("whatever the writer is doing, the last of many stores and updates of one key is what is on disk")
    func lastWriteWins() async throws {
        let directory = temporaryCacheDirectory()
        let storage = try DiskCacheStorage(directory: directory)
        for endsWithUpdate in [false, true] {
            var last = entry("k")
            for round in 1...200 {
                last = entry("k", bytes: round)
                if round % 3 == 0 { storage.store([last], for: "k") } else { storage.storeSoon([last], for: "k") }
            }
            if endsWithUpdate {
                last = entry("k", bytes: 999)
                storage.storeSoon([last], for: "k")
            }
            #expect(storage.variants(for: "k") == [last])
            await storage.flush()
            #expect(try DiskCacheStorage(directory: directory).variants(for: "k") == [last])
        }
    }

    @Test("a removal wins over an update still waiting for the writer")
    func removalWinsOverUpdate() async throws {
        let directory = temporaryCacheDirectory()
        let storage = try DiskCacheStorage(directory: directory)
        storage.store([entry("k")], for: "k")
        storage.storeSoon([entry("k", bytes: 50)], for: "k")
        storage.remove("k")
        #expect(storage.variants(for: "k").isEmpty)
        await storage.flush()
        #expect(try DiskCacheStorage(directory: directory).variants(for: "k").isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".entry") }.isEmpty)
    }
}
