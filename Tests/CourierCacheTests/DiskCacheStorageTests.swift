import CourierSandbox
import Foundation
import HTTPTypes
import IntegrationTestSupport
import Testing

@testable import Courier
@testable import CourierCache

/// ``DiskCacheStorage``: damaged entries, sharing a directory, the byte bound, atomic writes.
@Suite("Disk cache storage")
struct DiskCacheStorageTests {
    func entry(_ key: String, bytes: Int = 100) -> CachedResponse {
        var head = HTTPResponse(status: .ok)
        head.headerFields[.cacheControl] = "max-age=600"
        return CachedResponse(
            url: key, head: head, body: Data((0..<bytes).map { UInt8(truncatingIfNeeded: $0) }),
            requestTime: Date(), responseTime: Date(), varyValues: [:])
    }

    @Test("an entry round-trips; a truncated, corrupted or foreign file is a miss and is removed")
    func damaged() throws {
        let storage = try DiskCacheStorage(directory: temporaryCacheDirectory())
        let stored = entry("k", bytes: 5_000)
        storage.store([stored], for: "k")
        #expect(storage.variants(for: "k") == [stored])
        let file = storage.url(for: "k")
        let whole = try Data(contentsOf: file)

        try whole.prefix(whole.count / 2).write(to: file)
        #expect(storage.variants(for: "k").isEmpty)
        #expect(!FileManager.default.fileExists(atPath: file.path))

        var flipped = whole
        flipped[flipped.count / 2] ^= 0xFF
        try flipped.write(to: file)
        #expect(storage.variants(for: "k").isEmpty)

        try Data("not an entry at all".utf8).write(to: file)
        #expect(storage.variants(for: "k").isEmpty)

        // Another key's entry under this key's name (a hash collision) is not served.
        let other = entry("other")
        try DiskEntryFormat.encode([other], bodies: [.inline(other.body)], key: "other").write(to: file)
        #expect(storage.variants(for: "k").isEmpty)
    }

    @Test("a corrupt entry on disk makes the client go to the origin, not fail")
    func corruptOverSockets() async throws {
        try await withSandbox { sandbox in
            let storage = try DiskCacheStorage(directory: temporaryCacheDirectory())
            let rig = CacheRig(sandbox, .disk, storage: storage)
            let endpoint = rig.endpoint(["cc": "max-age=600"])
            _ = try await rig.send(endpoint)
            let files = try FileManager.default.contentsOfDirectory(atPath: storage.directory.path).filter { $0.hasSuffix(".entry") }
            #expect(files.count == 1)
            for name in files { try Data("garbage".utf8).write(to: storage.directory.appendingPathComponent(name)) }
            let again = try await rig.send(endpoint)
            #expect(again.statusCode == 200 && again.answer?.hit == 2)
            #expect(try await rig.send(endpoint).answer?.hit == 2)
        }
    }

    @Test("two clients with their own stores over one directory share entries")
    func sharedDirectory() async throws {
        try await withSandbox { sandbox in
            let directory = temporaryCacheDirectory()
            let first = CacheRig(sandbox, .disk, storage: try DiskCacheStorage(directory: directory))
            let second = CacheRig(sandbox, .disk, storage: try DiskCacheStorage(directory: directory))
            let query: RequestParameters = ["cc": "max-age=600"]
            let original = try await first.send(first.endpoint(query))
            let shared = try await second.send(first.endpoint(query))
            #expect(shared.body == original.body && shared.age != nil)
            #expect(try await first.stats().hits == 1)
            // Both writing the same keys at once leaves whole entries only.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<40 {
                    let rig = index.isMultiple(of: 2) ? first : second
                    group.addTask { _ = try await rig.send(first.endpoint(["cc": "max-age=600", "n": index % 5])) }
                }
                try await group.waitForAll()
            }
            let storage = try DiskCacheStorage(directory: directory)
            for index in 0..<5 {
                let key = CacheMiddleware.key("/cache/\(first.key)?cc=max-age%3D600&n=\(index)", sandbox.baseURL)
                _ = storage.variants(for: key)
            }
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".tmp-") }
            #expect(leftovers.isEmpty)
        }
    }

    @Test("the byte bound holds under 10,000 entries and the most recently read survive")
    func bound() async throws {
        let storage = try DiskCacheStorage(directory: temporaryCacheDirectory(), maxBytes: 300_000)
        storage.store([entry("keep")], for: "keep")
        for index in 0..<10_000 {
            storage.store([entry("k\(index)")], for: "k\(index)")
            if index % 500 == 0 { _ = storage.variants(for: "keep") }
            // Seconds of file work: let the other suites' tasks run on this thread in between.
            if index % 100 == 0 { await Task.yield() }
        }
        #expect(storage.bytes <= 300_000)
        #expect(!storage.variants(for: "k9999").isEmpty)
        #expect(storage.variants(for: "k0").isEmpty)
        let files = try FileManager.default.contentsOfDirectory(atPath: storage.directory.path)
        #expect(files.count > 100 && files.allSatisfy { !$0.hasPrefix(".tmp-") })
    }
}
