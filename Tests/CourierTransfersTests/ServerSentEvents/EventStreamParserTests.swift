import Courier
import Foundation
import OpenAPIRuntime
import Testing

@testable import CourierTransfers

/// The WHATWG event-stream rules, byte by byte, and the four the stock decoder breaks.
@Suite("Event-stream parsing (WHATWG rules)")
struct EventStreamParserTests {
    /// Parses `text` fed in pieces of `chunk` bytes.
    func parse(_ text: String, chunk: Int = .max, bom: Bool = false) throws -> [ServerEvent] {
        var bytes = Array(text.utf8)
        if bom { bytes.insert(contentsOf: [0xEF, 0xBB, 0xBF], at: 0) }
        var parser = EventStreamParser()
        var events: [ServerEvent] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunk)
            events += try parser.feed(bytes[start..<end])
            start = end
        }
        return events
    }

    static let sample = "id: 1\nevent: tick\ndata: {\"n\":1}\n\n: a comment\ndata: first line\ndata: second line\n\nid\ndata: after reset\n\n"

    @Test("LF, CR and CRLF line ends give the same events, however the bytes are split", arguments: ["\n", "\r", "\r\n"])
    func lineEnds(ending: String) throws {
        let text = Self.sample.replacingOccurrences(of: "\n", with: ending)
        let expected = [
            ServerEvent(id: "1", event: "tick", data: #"{"n":1}"#, lastEventID: "1"),
            ServerEvent(data: "first line\nsecond line", lastEventID: "1"),
            ServerEvent(id: "", data: "after reset", lastEventID: ""),
        ]
        for chunk in [1, 2, 3, 7, .max] {
            #expect(try parse(text, chunk: chunk) == expected, "chunks of \(chunk)")
        }
    }

    @Test("a leading UTF-8 BOM is skipped, even split across chunks; a later one is data")
    func byteOrderMark() throws {
        for chunk in [1, 2, 4, .max] {
            #expect(try parse("data: a\n\n", chunk: chunk, bom: true) == [ServerEvent(data: "a")])
        }
        #expect(try parse("data: \u{FEFF}b\n\n") == [ServerEvent(data: "\u{FEFF}b")])
    }

    @Test("comments, unknown fields and blocks without data dispatch nothing, but id and retry take effect")
    func noData() throws {
        var parser = EventStreamParser()
        #expect(try parser.feed(Array(": hello\nfoo: bar\nid: 7\nretry: 2500\n\n".utf8)).isEmpty)
        #expect(parser.lastEventID == "7" && parser.reconnectionTime == 2500)
        #expect(try parser.feed(Array("data\n\n".utf8)) == [ServerEvent(data: "", lastEventID: "7")])
        #expect(try parser.feed(Array("retry: 10s\nretry: -1\nid: a\u{0}b\ndata: x\n\n".utf8)) == [ServerEvent(data: "x", lastEventID: "7")])
        #expect(parser.reconnectionTime == 2500, "retry must be ASCII digits only")
    }

    @Test("only one space after the colon is dropped; a field without a colon has an empty value")
    func values() throws {
        #expect(try parse("data:  two spaces\ndata:none\ndata\n\n") == [ServerEvent(data: " two spaces\nnone\n")])
        #expect(try parse("event\ndata: x\n\n") == [ServerEvent(event: "", data: "x")])
    }

    @Test("an unterminated last event is discarded")
    func unterminated() throws {
        var parser = EventStreamParser()
        #expect(try parser.feed(Array("data: done\n\ndata: half".utf8)) == [ServerEvent(data: "done")])
        parser.discardPending()
        #expect(try parser.feed(Array("\n\n".utf8)).isEmpty)
    }

    @Test("a line longer than the limit fails with responseTooLarge instead of growing without end")
    func limit() throws {
        var parser = EventStreamParser(limit: 64)
        #expect(throws: NetworkError.responseTooLarge(limit: 64)) {
            _ = try parser.feed(Array(("data: " + String(repeating: "x", count: 100)).utf8))
        }
    }

    /// Why Courier has its own parser: what swift-openapi-runtime 1.13.4's decoder does with the
    /// same bytes. If one of these starts failing, the stock decoder was fixed: reconsider.
    @Test("the stock decoder breaks four WHATWG rules that Courier's parser keeps")
    func stockDeviations() async throws {
        func stock(_ bytes: [UInt8]) async throws -> [OpenAPIRuntime.ServerSentEvent] {
            var events: [OpenAPIRuntime.ServerSentEvent] = []
            for try await event in HTTPBody(bytes).asDecodedServerSentEvents() { events.append(event) }
            return events
        }
        // 1. A leading BOM must be skipped: the stock decoder reads the first field as "\u{FEFF}data".
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("data: a\n\n".utf8)
        #expect(try await stock(bom).first?.data == nil)
        #expect(try parse("data: a\n\n", bom: true).first?.data == "a")
        // 2. `id` without a colon must reset the last event ID: the stock decoder skips the line.
        let reset = Array("id: 5\ndata: a\n\nid\ndata: b\n\n".utf8)
        #expect(try await stock(reset).map(\.id) == ["5", nil])
        #expect(try parse("id: 5\ndata: a\n\nid\ndata: b\n\n").map(\.lastEventID) == ["5", ""])
        // 3. A block without data must not be dispatched: the stock decoder emits it.
        let noData = Array("id: 9\n\ndata: x\n\n".utf8)
        #expect(try await stock(noData).count == 2)
        #expect(try parse("id: 9\n\ndata: x\n\n").count == 1)
        // 4. The last event ID carries over to later events: the stock decoder's is per event.
        let carry = Array("id: 3\ndata: a\n\ndata: b\n\n".utf8)
        #expect(try await stock(carry).last?.id == nil)
        #expect(try parse("id: 3\ndata: a\n\ndata: b\n\n").last?.lastEventID == "3")
    }
}
