import CourierAsyncHTTPClient
import CourierSandbox
import Foundation
import HTTPTypes
import IntegrationTestSupport
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import Testing

@testable import Courier
@testable import CourierCache

/// Bodies over the cache's memory limit, through a disk store: streamed to the caller while they
/// are written to a body file, committed only whole, served from the file in chunks. The
/// transport is swift-openapi-async-http-client's, which streams bodies (as OpenAPI-generated
/// clients use the cache).
@Suite("Cache: large bodies streamed to disk")
struct LargeBodyCacheTests {
    /// A cache over a fresh disk store holding at most `limit` bytes of a body in memory.
    struct Rig {
        let storage: DiskCacheStorage
        let cache: CacheMiddleware
        let transport = AsyncHTTPClientTransport()
        let baseURL: URL

        init(_ sandbox: RunningSandbox, limit: Int = 64 << 10, maxBytes: Int = 100 << 20) throws {
            storage = try DiskCacheStorage(directory: temporaryCacheDirectory(), maxBytes: maxBytes)
            cache = CacheMiddleware(storage: storage, maxEntryBytes: limit)
            baseURL = sandbox.baseURL
        }

        /// GET `path` through the cache; the body as the caller reads it, stopping after
        /// `stopAfter` chunks when given (then the body is dropped unread).
        func get(_ path: String, unknownLength: Bool = false, stopAfter: Int? = nil) async throws -> Served {
            let transport = self.transport
            let (head, body) = try await cache.intercept(
                HTTPRequest(method: .get, scheme: nil, authority: nil, path: path), body: nil,
                baseURL: baseURL, operationID: "get"
            ) { request, body, url in
                let (head, answer) = try await transport.send(request, body: body, baseURL: url, operationID: "get")
                // The same bytes with no declared length (a chunked answer).
                return (head, unknownLength ? answer.map { HTTPBody($0.map { $0 }, length: .unknown, iterationBehavior: .single) } : answer)
            }
            var served = Served(head: head)
            guard let body else { return served }
            for try await chunk in body {
                served.bytes += chunk
                served.largestChunk = max(served.largestChunk, chunk.count)
                served.chunks += 1
                if let stopAfter, served.chunks >= stopAfter { break }
            }
            return served
        }

        /// The files in the store's directory by kind.
        func files() throws -> (entries: [String], bodies: [String], temporary: [String]) {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: storage.directory.path)) ?? []
            return (names.filter { $0.hasSuffix(".entry") }, names.filter { $0.hasSuffix(".body") }, names.filter { $0.hasPrefix(".tmp-") })
        }

        /// Whether the store's directory has no entry, body or temporary file.
        func holdsNothing() throws -> Bool {
            let files = try files()
            return files.entries.isEmpty && files.bodies.isEmpty && files.temporary.isEmpty
        }

        func path(_ name: String) -> String { storage.directory.appendingPathComponent(name).path }
    }

    /// What the caller got.
    struct Served {
        var head: HTTPResponse
        var bytes: [UInt8] = []
        var largestChunk = 0
        var chunks = 0
    }

    /// The sandbox's pattern body: 0, 1, … 255, 0, 1 …
    static func pattern(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0) } }

    static func mode(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o777 : 0
    }

    @Test("a 1 MiB body over the 64 KiB limit reaches the caller whole, is stored as a body file (0600) and served from it in 64 KiB chunks")
    func streamedAndServed() async throws {
        try await withSandbox { sandbox in
            let rig = try Rig(sandbox)
            let path = "/cache/large-\(UUID().uuidString.prefix(8))?cc=max-age%3D600&bytes=1048576"
            let first = try await rig.get(path)
            #expect(first.head.status == .ok && first.bytes == Self.pattern(1 << 20))
            let files = try rig.files()
            #expect(files.entries.count == 1 && files.bodies.count == 1 && files.temporary.isEmpty)
            for name in files.entries + files.bodies { #expect(Self.mode(rig.path(name)) == 0o600) }
            #expect(try FileManager.default.attributesOfItem(atPath: rig.path(files.bodies[0]))[.size] as? Int == 1 << 20)

            let second = try await rig.get(path)
            #expect(second.head.headerFields[.age] != nil, "served from the cache")
            #expect(second.bytes == Self.pattern(1 << 20))
            #expect(second.largestChunk <= 64 << 10 && second.chunks >= 16)
            let key = CacheMiddleware.key(path, sandbox.baseURL)
            #expect(rig.storage.variants(for: key).first?.bodyFile?.length == 1 << 20)
            let stats = try await NetworkClient().request(
                TestEndpoint(sandbox.baseURL, String(path.prefix { $0 != "?" }) + "/stats"), as: CacheStats.self)
            #expect(stats.hits == 1)
        }
    }

    @Test("a body of unknown length that grows past the limit is passed on as it comes and stored whole")
    func unknownLength() async throws {
        try await withSandbox { sandbox in
            let rig = try Rig(sandbox)
            let path = "/cache/chunked-\(UUID().uuidString.prefix(8))?cc=max-age%3D600&bytes=300000"
            let first = try await rig.get(path, unknownLength: true)
            #expect(first.bytes == Self.pattern(300_000))
            #expect(try rig.files().bodies.count == 1)
            let second = try await rig.get(path, unknownLength: true)
            #expect(second.head.headerFields[.age] != nil && second.bytes == Self.pattern(300_000))
            // Under the limit, an unknown length is held in memory and stored as before.
            let small = "/cache/chunked-small-\(UUID().uuidString.prefix(8))?cc=max-age%3D600&bytes=1000"
            #expect(try await rig.get(small, unknownLength: true).bytes == Self.pattern(1000))
            #expect(try await rig.get(small, unknownLength: true).head.headerFields[.age] != nil)
        }
    }

    @Test("a body cut short (declared 2048, sent 512; or chunked and dropped) leaves no entry and no temporary file")
    func truncated() async throws {
        try await withSandbox { sandbox in
            let rig = try Rig(sandbox, limit: 256)
            await #expect(throws: (any Error).self) { _ = try await rig.get("/truncated") }
            await #expect(throws: (any Error).self) { _ = try await rig.get("/drop") }
            await #expect(throws: (any Error).self) { _ = try await rig.get("/drop", unknownLength: true) }
            #expect(try rig.holdsNothing())
        }
    }

    @Test("a caller that stops reading, or a cancelled task, leaves no entry and no temporary file")
    func abandoned() async throws {
        try await withSandbox { sandbox in
            let rig = try Rig(sandbox)
            let path = "/cache/abandoned-\(UUID().uuidString.prefix(8))?cc=max-age%3D600&bytes=4194304"
            let partial = try await rig.get(path, stopAfter: 2)
            #expect(partial.chunks == 2)
            let reader = Task { try await rig.get(path + "&mbps=80") }
            try await Task.sleep(for: .milliseconds(100))
            reader.cancel()
            _ = try? await reader.value
            await eventually { try rig.files().temporary.isEmpty }
            #expect(try rig.holdsNothing())
        }
    }

    @Test("a body file shorter than its recorded length is a miss: the entry goes and the origin answers")
    func shortBodyFile() async throws {
        try await withSandbox { sandbox in
            let rig = try Rig(sandbox)
            let path = "/cache/short-\(UUID().uuidString.prefix(8))?cc=max-age%3D600&bytes=200000"
            _ = try await rig.get(path)
            let body = try #require(try rig.files().bodies.first)
            #expect(truncate(rig.path(body), 100_000) == 0)
            #expect(rig.storage.variants(for: CacheMiddleware.key(path, sandbox.baseURL)).isEmpty)
            let files = try rig.files()
            #expect(files.entries.isEmpty && files.bodies.isEmpty)
            let again = try await rig.get(path)
            #expect(again.head.headerFields[.age] == nil && again.bytes == Self.pattern(200_000))
        }
    }

    @Test("a 304 for a 1 MiB body rewrites only the entry file: the body file is the same file, untouched")
    func revalidationKeepsBodyFile() async throws {
        try await withSandbox { sandbox in
            let storage = try DiskCacheStorage(directory: temporaryCacheDirectory())
            let client = NetworkClient(configuration: .init(middlewares: [CacheMiddleware(storage: storage)]))
            let endpoint = TestEndpoint(
                sandbox.baseURL, "/cache/reval-\(UUID().uuidString.prefix(8))",
                query: ["cc": "no-cache", "etag": "v1", "bytes": 1 << 20])
            let full = try await client.response(endpoint)
            let names = try FileManager.default.contentsOfDirectory(atPath: storage.directory.path)
            let bodyName = try #require(names.first { $0.hasSuffix(".body") })
            let entryName = try #require(names.first { $0.hasSuffix(".entry") })
            func inode(_ name: String) -> ino_t {
                var info = stat()
                return stat(storage.directory.appendingPathComponent(name).path, &info) == 0 ? info.st_ino : 0
            }
            let (bodyBefore, entryBefore) = (inode(bodyName), inode(entryName))
            let revalidated = try await client.response(endpoint)
            #expect(revalidated.body == full.body && revalidated.body.count == 1 << 20)
            #expect(revalidated.headers[.age] != nil)
            // A 304's update is written off the caller's path (DiskCacheStorage.storeSoon).
            await storage.flush()
            #expect(inode(bodyName) == bodyBefore, "the body file was not rewritten")
            #expect(inode(entryName) != entryBefore, "the entry file was replaced")
            #expect(try FileManager.default.contentsOfDirectory(atPath: storage.directory.path).sorted() == names.sorted())
        }
    }

    @Test("the byte bound counts body files: old entries go with their body files, none is left behind")
    func boundCountsBodyFiles() async throws {
        try await withSandbox { sandbox in
            let rig = try Rig(sandbox, maxBytes: 2_600_000)
            for index in 0..<5 {
                _ = try await rig.get("/cache/bound-\(index)-\(UUID().uuidString.prefix(8))?cc=max-age%3D600&bytes=1000000")
            }
            #expect(rig.storage.bytes <= 2_600_000)
            let files = try rig.files()
            #expect(!files.bodies.isEmpty && files.bodies.count == files.entries.count)
            for body in files.bodies { #expect(files.entries.contains(String(body.prefix(32)) + ".entry")) }
        }
    }
}
