import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

@testable import Courier
@testable import CourierCache
@testable import CourierTransfers

/// What fuzzing found in Courier's own parsers and writers (Fuzz/README.md), kept as tests.
@Suite("Fuzz findings (Courier)")
struct FuzzFindingsTests {
    @Test("an event that passes the limit inside one chunk is not handed over")
    func sseLimitWithinAChunk() {
        var parser = EventStreamParser(limit: 1)
        #expect(throws: NetworkError.responseTooLarge(limit: 1)) { try parser.feed(Array("data: ab\n\n".utf8)) }
        var lines = EventStreamParser(limit: 4)
        #expect(throws: NetworkError.responseTooLarge(limit: 4)) { try lines.feed(Array(": a long comment\n\n".utf8)) }
        var fine = EventStreamParser(limit: 8)
        #expect((try? fine.feed(Array("data: ab\n\n".utf8)))?.map(\.data) == ["ab"])
    }

    @Test("a disk cache entry with a status past 999 is a miss, not a trap")
    func diskEntryStatus() throws {
        for status in [1000, 65_535, 99] {
            let response = CachedResponse(
                url: "u", head: HTTPResponse(status: .ok), body: Data("x".utf8),
                requestTime: Date(), responseTime: Date(), varyValues: [:])
            var crafted = response
            crafted.status = status
            let data = DiskEntryFormat.encode([crafted], bodies: [.inline(Data("x".utf8))], key: "k")
            #expect(DiskEntryFormat.decode(data, key: "k") == nil, "status \(status)")
        }
    }

    @Test("multipart parameters and content types cannot inject header text")
    func multipartInjection() async throws {
        var form = MultipartFormData(boundary: "BOUNDARY")
        form.append(
            data: Data("x".utf8), name: "x\"\u{301}; filename=evil", fileName: "a\r\u{301}\n\u{301}X: y",
            contentType: "text/plain\r\nX-Injected: 1")
        let bytes = try await Data(collecting: try form.body(), upTo: 1 << 20)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(!text.contains("\r\nX-Injected"))
        #expect(!text.contains("\r\u{301}"))
        #expect(!bytes.contains(0x0D) || text.components(separatedBy: "\r\n").allSatisfy { !$0.hasPrefix("X: y") })
        #expect(text.contains("name=\"x%22\u{301}; filename=evil\""))
    }
}
