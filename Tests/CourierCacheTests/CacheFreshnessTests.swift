import Courier
import CourierSandbox
import Foundation
import HTTPTypes
import IntegrationTestSupport
import Testing

/// ``CacheMiddleware``: storing, freshness and `Age`, against the sandbox's `/cache/{key}`.
@Suite("Cache freshness, in memory (the sandbox's router, no socket)")
struct CacheFreshnessTests {
    @Test("a fresh max-age response is served from the cache with an Age that counts the time spent there", arguments: StoreKind.allCases)
    func freshHit(kind: StoreKind) async throws {
        try await withSandbox(lane: .inMemory) { sandbox in
            let rig = CacheRig(sandbox, kind)
            let endpoint = rig.endpoint(["cc": "max-age=600"])
            let first = try await rig.send(endpoint)
            rig.clock.advance(100)
            let second = try await rig.send(endpoint)
            #expect(first.answer?.hit == 1 && second.answer?.hit == 1)
            #expect(second.body == first.body)
            #expect((second.age ?? -1) >= 100 && (second.age ?? 0) < 160)
            #expect(try await rig.stats().hits == 1)
        }
    }

    @Test("the origin's Age counts towards freshness: Age beyond max-age is stale at once", arguments: StoreKind.allCases)
    func ageBeyondMaxAge(kind: StoreKind) async throws {
        try await withSandbox(lane: .inMemory) { sandbox in
            let rig = CacheRig(sandbox, kind)
            let endpoint = rig.endpoint(["cc": "max-age=60", "age": "120"])
            _ = try await rig.send(endpoint)
            let second = try await rig.send(endpoint)
            #expect(second.answer?.hit == 2)
            #expect(try await rig.stats().hits == 2)
        }
    }

    @Test("a response past max-age is validated with If-None-Match; the 304 updates the stored fields, the body stays", arguments: StoreKind.allCases)
    func revalidation(kind: StoreKind) async throws {
        try await withSandbox(lane: .inMemory) { sandbox in
            let rig = CacheRig(sandbox, kind)
            let endpoint = rig.endpoint(["cc": "max-age=10", "etag": "v1"])
            let first = try await rig.send(endpoint)
            rig.clock.advance(30)
            // The 304 brings a longer lifetime (the cache's clock is now 30 s ahead of the origin's Date).
            let second = try await rig.send(rig.endpoint(["cc": "max-age=10", "etag": "v1"], headers: ["X-Set-Cache-Control": "max-age=600"]))
            #expect(second.statusCode == 200)
            #expect(second.body == first.body)
            #expect(second.headers[HTTPField.Name("X-Hit")!] == "2")
            #expect(second.headers[.cacheControl] == "max-age=600")
            #expect((second.age ?? 99) < 60)
            let stats = try await rig.stats()
            #expect(stats.hits == 2 && stats.conditional == 1 && stats.notModified == 1)
            // Freshened: the next request within the new lifetime is a hit.
            let third = try await rig.send(endpoint)
            #expect(third.headers[HTTPField.Name("X-Hit")!] == "2" && third.body == first.body)
            #expect(try await rig.stats().hits == 2)
        }
    }

    @Test("heuristic freshness: 10% of the time since Last-Modified, then If-Modified-Since", arguments: StoreKind.allCases)
    func heuristic(kind: StoreKind) async throws {
        try await withSandbox(lane: .inMemory) { sandbox in
            let rig = CacheRig(sandbox, kind)
            let endpoint = rig.endpoint(["lastModified": 1000])
            _ = try await rig.send(endpoint)
            rig.clock.advance(50)
            _ = try await rig.send(endpoint)
            #expect(try await rig.stats().hits == 1)
            rig.clock.advance(100)
            let third = try await rig.send(endpoint)
            #expect(third.answer?.hit == 1)
            let stats = try await rig.stats()
            #expect(stats.hits == 2 && stats.notModified == 1)
        }
    }

    @Test("Expires in the future is fresh; an invalid Expires is already stale", arguments: StoreKind.allCases)
    func expires(kind: StoreKind) async throws {
        try await withSandbox(lane: .inMemory) { sandbox in
            let rig = CacheRig(sandbox, kind)
            let valid = rig.endpoint(["expires": 300])
            _ = try await rig.send(valid)
            _ = try await rig.send(valid)
            #expect(try await rig.stats().hits == 1)
            let invalid = rig.endpoint(["expires": "invalid", "n": 2])
            _ = try await rig.send(invalid)
            let again = try await rig.send(invalid)
            #expect(again.answer?.hit == 3)
        }
    }

    @Test("no-store, and Authorization without public, are never stored; public with Authorization is", arguments: StoreKind.allCases)
    func notStored(kind: StoreKind) async throws {
        try await withSandbox(lane: .inMemory) { sandbox in
            let rig = CacheRig(sandbox, kind)
            let noStore = rig.endpoint(["cc": "max-age=600, no-store"])
            _ = try await rig.send(noStore)
            #expect(try await rig.send(noStore).answer?.hit == 2)
            let auth = rig.endpoint(["cc": "max-age=600", "a": 1], headers: ["Authorization": "Bearer secret"])
            _ = try await rig.send(auth)
            #expect(try await rig.send(auth).answer?.hit == 4)
            let open = rig.endpoint(["cc": "public, max-age=600", "a": 2], headers: ["Authorization": "Bearer secret"])
            _ = try await rig.send(open)
            #expect(try await rig.send(open).answer?.hit == 5)
        }
    }

    @Test("HEAD is answered from a stored GET, without a body", arguments: StoreKind.allCases)
    func head(kind: StoreKind) async throws {
        try await withSandbox(lane: .inMemory) { sandbox in
            let rig = CacheRig(sandbox, kind)
            _ = try await rig.send(rig.endpoint(["cc": "max-age=600"]))
            let head = try await rig.send(rig.endpoint(["cc": "max-age=600"], method: .head))
            #expect(head.statusCode == 200 && head.body.isEmpty && head.age != nil)
            #expect(try await rig.stats().hits == 1)
        }
    }
}
