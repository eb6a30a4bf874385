import Foundation
import HTTPTypes
import Testing

@testable import Courier
@testable import CourierCache
@testable import CourierCookies

/// Pure logic of the cache: directives, dates, age, freshness, the memory store's bound.
@Suite("Cache parsing and storage")
struct CacheParsingTests {
    @Test("Cache-Control: names case-insensitive, quoted values, first occurrence wins, invalid max-age is 0")
    func directives() {
        let directives = CacheControl(["Public, MAX-AGE=\"60\", max-age=5", "stale-if-error=30, no-cache=\"Set-Cookie, X\""])
        #expect(directives.isPublic && directives.maxAge == 60 && directives.staleIfError == 30 && directives.noCache)
        #expect(CacheControl(["max-age=abc"]).maxAge == 0)
        #expect(CacheControl(["max-age=-1"]).maxAge == 0)
        #expect(CacheControl(["max-age=99999999999999"]).maxAge == 2_147_483_648)
        #expect(CacheControl(["max-stale"]).maxStale == .infinity)
        #expect(CacheControl([HTTPField.Name("Pragma")!: "no-cache"] as HTTPFields).noCache)
    }

    @Test("HTTP dates in all three forms; anything else is no date")
    func dates() {
        let expected = Date(timeIntervalSince1970: 784_111_777)
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == expected)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == expected)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == expected)
        for bad in ["0", "-1", "", "Sun, 06 Nov 1994 25:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT", "tomorrow"] {
            #expect(HTTPDate.parse(bad) == nil, "\(bad)")
        }
    }

    @Test("age: the larger of apparent and corrected age, plus resident time; Age lists use the first value")
    func age() {
        let now = Date(timeIntervalSince1970: 1_000_000)
        var head = HTTPResponse(status: .ok)
        head.headerFields[.age] = "30"
        head.headerFields[.cacheControl] = "max-age=100"
        let entry = CachedResponse(
            url: "u", head: head, body: Data(), requestTime: now.addingTimeInterval(-2),
            responseTime: now, varyValues: [:])
        let freshness = CacheFreshness(entry, now: now.addingTimeInterval(10))
        #expect(freshness.age == 42 && freshness.lifetime == 100 && freshness.isFresh)
        #expect(CacheFreshness.parseAge("7, 9") == 7 && CacheFreshness.parseAge("-3") == nil && CacheFreshness.parseAge("1.5") == nil)
    }

    @Test("the memory store stays within its byte bound under 10,000 entries and drops the least recently used")
    func memoryBound() {
        let storage = MemoryCacheStorage(maxBytes: 200_000)
        let head = HTTPResponse(status: .ok)
        func entry(_ index: Int) -> CachedResponse {
            CachedResponse(url: "k\(index)", head: head, body: Data(count: 100), requestTime: Date(), responseTime: Date(), varyValues: [:])
        }
        for index in 0..<10_000 {
            storage.store([entry(index)], for: "k\(index)")
            if index % 100 == 0 { _ = storage.variants(for: "k0") }
            #expect(storage.bytes <= 200_000)
        }
        #expect(!storage.variants(for: "k0").isEmpty)
        #expect(storage.variants(for: "k1").isEmpty)
        #expect(!storage.variants(for: "k9999").isEmpty)
        #expect(storage.count > 500)
    }
}
