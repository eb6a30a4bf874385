import Courier
import CourierSandbox
import Foundation
import HTTPTypes
import IntegrationTestSupport
import Testing

/// ``CacheMiddleware``: Vary, request directives, invalidation and stale serving over sockets.
@Suite("Cache validation, in memory (the sandbox's router, no socket; offline reading over a socket)")
struct CacheValidationTests {
    @Test("Vary keeps variants apart; a mismatch goes to the origin, then both variants are hits", arguments: StoreKind.allCases)
    func vary(kind: StoreKind) async throws {
        try await withSandbox(lane: .inMemory) { sandbox in
            let rig = CacheRig(sandbox, kind)
            let query: RequestParameters = ["cc": "max-age=600", "vary": "Accept-Language", "etag": "e"]
            let korean = try await rig.send(rig.endpoint(query, headers: ["Accept-Language": "ko"]))
            let english = try await rig.send(rig.endpoint(query, headers: ["Accept-Language": "en"]))
            #expect(korean.answer?.variant == "ko" && english.answer?.variant == "en")
            let stats = try await rig.stats()
            #expect(stats.hits == 2 && stats.conditional == 1 && stats.notModified == 0)
            #expect(try await rig.send(rig.endpoint(query, headers: ["Accept-Language": "ko"])).answer?.variant == "ko")
            #expect(try await rig.send(rig.endpoint(query, headers: ["Accept-Language": "en"])).answer?.variant == "en")
            #expect(try await rig.stats().hits == 2)
        }
    }

    @Test("Vary: * is never reused")
    func varyStar() async throws {
        try await withSandbox(lane: .inMemory) { sandbox in
            let rig = CacheRig(sandbox, .memory)
            _ = try await rig.send(rig.endpoint(["cc": "max-age=600", "vary": "*"]))
            #expect(try await rig.send(rig.endpoint(["cc": "max-age=600", "vary": "*"])).answer?.hit == 2)
        }
    }

    @Test("a successful POST invalidates the URL and its Location", arguments: StoreKind.allCases)
    func invalidation(kind: StoreKind) async throws {
        try await withSandbox(lane: .inMemory) { sandbox in
            let rig = CacheRig(sandbox, kind)
            let other = "o-\(rig.key)"
            let mine = rig.endpoint(headers: ["X-Set-Cache-Control": "max-age=600"])
            let theirs = rig.endpoint(headers: ["X-Set-Cache-Control": "max-age=600"], path: "/cache/\(other)")
            _ = try await rig.send(mine)
            _ = try await rig.send(theirs)
            let post = try await rig.send(rig.endpoint(method: .post, headers: ["X-Set-Location": "/cache/\(other)"]))
            #expect(post.statusCode == 200)
            #expect(try await rig.send(mine).answer?.hit == 3)
            #expect(try await rig.send(theirs).answer?.hit == 2)
            // The other URL was fetched again after the invalidation.
            #expect(try await rig.stats(other).hits == 2)
        }
    }

    @Test("request no-cache and max-age=0 validate; max-stale accepts stale; min-fresh refuses nearly stale", arguments: StoreKind.allCases)
    func requestDirectives(kind: StoreKind) async throws {
        try await withSandbox(lane: .inMemory) { sandbox in
            let rig = CacheRig(sandbox, kind)
            let query: RequestParameters = ["cc": "max-age=100", "etag": "x"]
            _ = try await rig.send(rig.endpoint(query))
            _ = try await rig.send(rig.endpoint(query, headers: ["Cache-Control": "no-cache"]))
            _ = try await rig.send(rig.endpoint(query, headers: ["Cache-Control": "max-age=0"]))
            var stats = try await rig.stats()
            #expect(stats.hits == 3 && stats.notModified == 2)
            rig.clock.advance(95)
            _ = try await rig.send(rig.endpoint(query, headers: ["Cache-Control": "min-fresh=30"]))
            #expect(try await rig.stats().hits == 4)
            rig.clock.advance(150)
            let stale = try await rig.send(rig.endpoint(query, headers: ["Cache-Control": "max-stale=1000"]))
            #expect(stale.statusCode == 200 && (stale.age ?? 0) >= 150)
            stats = try await rig.stats()
            #expect(stats.hits == 4)
        }
    }

    @Test("only-if-cached with nothing stored answers 504 without asking the origin", arguments: StoreKind.allCases)
    func onlyIfCached(kind: StoreKind) async throws {
        try await withSandbox(lane: .inMemory) { sandbox in
            let rig = CacheRig(sandbox, kind)
            let answer = try await rig.send(rig.endpoint(["cc": "max-age=60"], headers: ["Cache-Control": "only-if-cached"]))
            #expect(answer.statusCode == 504)
            #expect(try await rig.stats().hits == 0)
        }
    }

    @Test("stale-if-error serves the stale response on a 500; must-revalidate does not", arguments: StoreKind.allCases)
    func staleIfError(kind: StoreKind) async throws {
        try await withSandbox(lane: .inMemory) { sandbox in
            let rig = CacheRig(sandbox, kind)
            let lenient = rig.endpoint(["cc": "max-age=10, stale-if-error=600"])
            _ = try await rig.send(lenient)
            rig.clock.advance(60)
            let served = try await rig.send(rig.endpoint(["cc": "max-age=10, stale-if-error=600"], headers: ["X-Set-Status": "500"]))
            #expect(served.statusCode == 200 && served.answer?.hit == 1)
            let strict = rig.endpoint(["cc": "max-age=10, must-revalidate", "s": 1])
            _ = try await rig.send(strict)
            rig.clock.advance(60)
            let failed = try await rig.send(rig.endpoint(["cc": "max-age=10, must-revalidate", "s": 1], headers: ["X-Set-Status": "500"]))
            #expect(failed.statusCode == 500)
        }
    }

    @Test("stale-while-revalidate serves stale within its window")
    func staleWhileRevalidate() async throws {
        try await withSandbox(lane: .inMemory) { sandbox in
            let rig = CacheRig(sandbox, .memory)
            let endpoint = rig.endpoint(["cc": "max-age=10, stale-while-revalidate=100"])
            _ = try await rig.send(endpoint)
            rig.clock.advance(50)
            #expect(try await rig.send(endpoint).answer?.hit == 1)
            rig.clock.advance(100)
            #expect(try await rig.send(endpoint).answer?.hit == 2)
        }
    }

    @Test("the reload policy goes to the origin and stores the new answer", arguments: StoreKind.allCases)
    func reload(kind: StoreKind) async throws {
        try await withSandbox(lane: .inMemory) { sandbox in
            let rig = CacheRig(sandbox, kind)
            _ = try await rig.send(rig.endpoint(["cc": "max-age=600"]))
            #expect(try await rig.send(rig.endpoint(["cc": "max-age=600"], policy: .reload)).answer?.hit == 2)
            #expect(try await rig.send(rig.endpoint(["cc": "max-age=600"])).answer?.hit == 2)
        }
    }

    @Test("offline first: a stale must-revalidate response is served when the connection is refused", arguments: StoreKind.allCases)
    func offline(kind: StoreKind) async throws {
        let sandbox = try await SandboxServer.start()
        let rig = CacheRig(sandbox, kind)
        let endpoint = rig.endpoint(["cc": "max-age=10, must-revalidate"], policy: .preferCache)
        _ = try await rig.send(endpoint)
        _ = try await rig.send(rig.endpoint(["cc": "max-age=10"]))
        await sandbox.stop()
        rig.clock.advance(3600)
        let offline = try await rig.send(endpoint)
        #expect(offline.statusCode == 200 && offline.answer?.hit == 1 && (offline.age ?? 0) >= 3600)
        // The standard policy never serves a stale must-revalidate response: 504 (RFC 9111 §5.2.2.2).
        #expect(try await rig.send(rig.endpoint(["cc": "max-age=10, must-revalidate"])).statusCode == 504)
        // A plain stale response is served while the origin cannot be reached (RFC 9111 §4.2.4).
        #expect(try await rig.send(rig.endpoint(["cc": "max-age=10"])).answer?.hit == 2)
        // Nothing stored at all: the transport error itself.
        await #expect(throws: NetworkError.self) { try await rig.send(rig.endpoint(["other": 1])) }
    }
}
