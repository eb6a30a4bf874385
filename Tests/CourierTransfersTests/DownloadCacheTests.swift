import Courier
import CourierCache
import CourierSandbox
import CourierTransfers
import Foundation
import IntegrationTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `client.download(_:to:)` through a `CacheMiddleware` over a `DiskCacheStorage`: the finished
/// file is stored by a hard link (no second copy), served while its bytes are unchanged.
@Suite("Downloads through a disk cache: linked, checked, served")
struct DownloadCacheTests {
    /// The device and inode of the file at `url`, and its link count.
    static func inode(_ url: URL) -> (device: UInt64, inode: UInt64, links: UInt64)? {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return nil }
        return (UInt64(info.st_dev), UInt64(info.st_ino), UInt64(info.st_nlink))
    }

    /// The body files in a cache directory.
    static func bodyFiles(_ directory: URL) -> [URL] {
        ((try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.pathExtension == "body" }
    }

    static func client(_ kind: TransportKind, cache directory: URL) throws -> NetworkClient {
        NetworkClient(
            configuration: .init(transport: kind.make(), middlewares: [CacheMiddleware(storage: try DiskCacheStorage(directory: directory))]))
    }

    @Test(
        "stored by a hard link to the downloaded file, not a copy; the next download and a plain call are served from it",
        arguments: TransportKind.allCases)
    func linkedAndServed(_ kind: TransportKind) async throws {
        try await withSandbox { sandbox in
            let routes = TransferRoutes(sandbox: sandbox)
            let scratch = try ScratchDirectory()
            let cache = scratch.file("cache")
            let client = try Self.client(kind, cache: cache)
            let size: Int64 = 3 << 20
            let key = transferKey("linked")
            let endpoint = routes.file("a.bin", ["size": size, "seed": 3, "maxAge": 3600, "key": key])
            let expected = TransferRoutes.content(size: size, seed: 3)

            let first = scratch.file("first.bin")
            _ = try await client.download(endpoint, to: first)
            #expect(try Data(contentsOf: first) == expected)
            let bodies = Self.bodyFiles(cache)
            try #require(bodies.count == 1, "one body file: \(bodies)")
            let stored = try #require(Self.inode(bodies[0]))
            let downloaded = try #require(Self.inode(first))
            #expect(stored.device == downloaded.device && stored.inode == downloaded.inode, "the cache's body is the downloaded file itself")
            #expect(stored.links == 2)

            let second = scratch.file("second.bin")
            let again = try await client.download(endpoint, to: second)
            #expect(try Data(contentsOf: second) == expected)
            #expect(again.bytes == size)
            #expect(Self.inode(second)?.inode != stored.inode, "a second download is a file of its own")
            let plain = try await client.response(endpoint)
            #expect(plain.body == expected)
            let stats = try await routes.stats(key)
            #expect(stats.requests == 1, "served from the cache: \(stats)")
        }
    }

    @Test(
        "a downloaded file changed in place (same size) or shortened is not served: fetched again, whole and right", arguments: TransportKind.allCases
    )
    func changedFileIsNotServed(_ kind: TransportKind) async throws {
        try await withSandbox { sandbox in
            let routes = TransferRoutes(sandbox: sandbox)
            let scratch = try ScratchDirectory()
            let cache = scratch.file("cache")
            let client = try Self.client(kind, cache: cache)
            let size: Int64 = 1 << 20
            let key = transferKey("changed")
            let endpoint = routes.file("c.bin", ["size": size, "seed": 5, "maxAge": 3600, "key": key])
            let expected = TransferRoutes.content(size: size, seed: 5)

            let mine = scratch.file("mine.bin")
            _ = try await client.download(endpoint, to: mine)
            // The owner edits the file in place: the cache shares its inode.
            let handle = try FileHandle(forWritingTo: mine)
            try handle.seek(toOffset: 1000)
            try handle.write(contentsOf: Data("edited".utf8))
            try handle.close()
            let other = scratch.file("other.bin")
            _ = try await client.download(endpoint, to: other)
            #expect(try Data(contentsOf: other) == expected, "the edit never reaches another download")
            #expect(try await routes.stats(key).requests == 2)

            // Stored again by linking `other`; now the owner shortens it.
            let linked = try #require(Self.bodyFiles(cache).first)
            #expect(Self.inode(linked)?.inode == Self.inode(other)?.inode)
            #expect(truncate(other.path, 100) == 0)
            let plain = try await client.response(endpoint)
            #expect(plain.body == expected)
            #expect(try await routes.stats(key).requests == 3)
        }
    }

    @Test("a stale stored download is validated: a 304 serves the linked file", arguments: TransportKind.allCases)
    func validatedWithA304(_ kind: TransportKind) async throws {
        try await withSandbox { sandbox in
            let routes = TransferRoutes(sandbox: sandbox)
            let scratch = try ScratchDirectory()
            let client = try Self.client(kind, cache: scratch.file("cache"))
            let size: Int64 = 2 << 20
            let key = transferKey("validated")
            let endpoint = routes.file("v.bin", ["size": size, "seed": 9, "maxAge": 0, "key": key])
            _ = try await client.download(endpoint, to: scratch.file("one.bin"))
            let two = scratch.file("two.bin")
            let file = try await client.download(endpoint, to: two)
            #expect(try Data(contentsOf: two) == TransferRoutes.content(size: size, seed: 9))
            #expect(file.bytes == size)
            let stats = try await routes.stats(key)
            #expect(stats.requests == 2 && stats.full == 1 && stats.notModified == 1, "\(stats)")
            #expect(stats.bytesWritten == Int(size), "the body crossed the network once")
        }
    }

    /// A cache directory on another device than the scratch directory, when there is one.
    static let otherDevice: URL? = {
        let shm = URL(fileURLWithPath: "/dev/shm")
        var here = stat()
        var there = stat()
        guard stat(FileManager.default.temporaryDirectory.path, &here) == 0, stat(shm.path, &there) == 0, here.st_dev != there.st_dev,
            access(shm.path, W_OK) == 0
        else { return nil }
        return shm
    }()

    @Test("a cache on another device cannot link the file: the download is not stored, and not copied", .enabled(if: otherDevice != nil))
    func anotherDeviceIsNotStored() async throws {
        try await withSandbox { sandbox in
            let routes = TransferRoutes(sandbox: sandbox)
            let scratch = try ScratchDirectory()
            let cache = try #require(Self.otherDevice).appendingPathComponent("courier-cache-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: cache) }
            let storage = try DiskCacheStorage(directory: cache)
            let client = NetworkClient(configuration: .init(middlewares: [CacheMiddleware(storage: storage)]))
            let key = transferKey("device")
            let endpoint = routes.file("d.bin", ["size": 1 << 20, "maxAge": 3600, "key": key])
            _ = try await client.download(endpoint, to: scratch.file("d1.bin"))
            #expect(Self.bodyFiles(cache).isEmpty)
            #expect(storage.bytes < 4096, "no copy of the body: \(storage.bytes) bytes")
            _ = try await client.download(endpoint, to: scratch.file("d2.bin"))
            #expect(try await routes.stats(key).requests == 2)
        }
    }
}
