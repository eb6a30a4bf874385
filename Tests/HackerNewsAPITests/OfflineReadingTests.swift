import Courier
import CourierCache
import CourierSandbox
import Foundation
import HackerNewsAPI
import IntegrationTestSupport
import Testing

/// Offline reading: items read once through a disk cache are read again with the stand-in stopped.
@Suite("Hacker News offline reading")
struct OfflineReadingTests {
    /// A client of the stand-in at `root` through a disk cache in `folder` with `policy`.
    func client(_ root: URL, _ folder: URL, _ policy: CachePolicy) throws -> HackerNewsClient {
        let cache = CacheMiddleware(storage: try DiskCacheStorage(directory: folder), defaultPolicy: policy)
        return HackerNewsClient(baseURL: root, configuration: .init(middlewares: [cache]))
    }

    @Test("an item and its comment tree read once are read again offline, with the origin stopped")
    func itemReadAgainOffline() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-hn-offline-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let sandbox = try await SandboxServer.start()
        let root = standIn(sandbox)
        let online = try client(root, folder, .preferCache)
        let item = try #require(try await online.item(id: 8863))
        let comments = try await online.comments(of: item)
        #expect(!comments.isEmpty)
        let requests = try await stats(of: sandbox).itemRequests
        await sandbox.stop()

        let offline = try client(root, folder, .offline)
        let again = try #require(try await offline.item(id: 8863))
        #expect(again == item)
        #expect(try await offline.comments(of: again) == comments)
        #expect(requests >= 1 + comments.count)

        // Never read: a 504 from the cache, not a connection attempt.
        await #expect(throws: NetworkError.self) { _ = try await offline.item(id: 8864) }
        do {
            _ = try await offline.item(id: StandIn.bigThread)
            Issue.record("an item never read was served offline")
        } catch {
            #expect(error.statusCode == 504)
        }
    }

    @Test("offline first: with the origin stopped, the prefer-cache policy serves what was stored")
    func preferCacheServesStaleOnRefusedConnection() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-hn-prefer-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let sandbox = try await SandboxServer.start()
        let root = standIn(sandbox)
        let reader = try client(root, folder, .preferCache)
        let item = try #require(try await reader.item(id: 8863))
        await sandbox.stop()
        #expect(try await reader.item(id: 8863) == item)
        let plain = HackerNewsClient(baseURL: root)
        await #expect(throws: NetworkError.self) { _ = try await plain.item(id: 8863) }
    }

    @Test("a second reader through the same folder sends nothing for what the first stored while the cache may serve it")
    func twoClientsShareTheFolder() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-hn-shared-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withSandbox { sandbox in
            let root = standIn(sandbox)
            let first = try client(root, folder, .standard)
            let item = try #require(try await first.item(id: 8863))
            let before = try await stats(of: sandbox).itemRequests
            let second = try client(root, folder, .offline)
            #expect(try await second.item(id: 8863) == item)
            #expect(try await stats(of: sandbox).itemRequests == before)
        }
    }
}
