import AsyncHTTPClient
import CourierSandbox
import Foundation
import IntegrationTestSupport
import Testing

/// The bytes of `/sse/events`: fields, line endings, BOM, retry, resume.
@Suite("Sandbox: server-sent event streams")
struct SSEEventsTests {
    /// Event `n` as the contract spells it, with `end` as the line terminator.
    static func event(_ n: Int, end: String = "\n") -> String {
        "id: \(n)\(end)data: {\"n\":\(n)}\(end)\(end)"
    }

    @Test("count=3 streams events 1…3 as id, compact JSON data and a blank line, then ends; text/event-stream, no-cache")
    func threeEvents() async throws {
        try await withSandbox { sandbox in
            let answer = try await sandbox.send(.GET, "/sse/events?count=3")
            #expect(answer.status == 200)
            #expect(answer.header("Content-Type") == "text/event-stream")
            #expect(answer.header("Cache-Control") == "no-cache")
            #expect(answer.text == (1...3).map { Self.event($0) }.joined())
        }
    }

    @Test("the default is 10 events; count=1000 numbers them 1…1000 in order")
    func counts() async throws {
        try await withSandbox { sandbox in
            let ten = try await sandbox.send(.GET, "/sse/events")
            #expect(ten.text == (1...10).map { Self.event($0) }.joined())
            let many = try await sandbox.send(.GET, "/sse/events?count=1000")
            #expect(many.body.occurrences(of: "id: ") == 1000)
            #expect(many.text.hasSuffix(Self.event(1000)) && many.text.hasPrefix(Self.event(1)))
            let empty = try await sandbox.send(.GET, "/sse/events?count=0")
            #expect(empty.status == 200 && empty.body.isEmpty)
        }
    }

    @Test("lineEnding=crlf and cr end every line with those bytes; lf has no CR at all")
    func lineEndings() async throws {
        try await withSandbox { sandbox in
            let crlf = try await sandbox.send(.GET, "/sse/events?count=2&lineEnding=crlf")
            #expect(crlf.body == Array((Self.event(1, end: "\r\n") + Self.event(2, end: "\r\n")).utf8))
            #expect(crlf.body.occurrences(of: "\r\n") == 6 && crlf.body.occurrences(of: "\n") == 6)
            let cr = try await sandbox.send(.GET, "/sse/events?count=2&lineEnding=cr")
            #expect(cr.body == Array((Self.event(1, end: "\r") + Self.event(2, end: "\r")).utf8))
            #expect(!cr.body.contains(UInt8(ascii: "\n")))
            let lf = try await sandbox.send(.GET, "/sse/events?count=2&lineEnding=lf")
            #expect(!lf.body.contains(UInt8(ascii: "\r")) && lf.body.occurrences(of: "\n") == 6)
        }
    }

    @Test("bom=1 starts the stream with EF BB BF, then the retry block, then the events")
    func bomAndRetry() async throws {
        try await withSandbox { sandbox in
            let answer = try await sandbox.send(.GET, "/sse/events?count=1&bom=1&retry=1500&lineEnding=crlf")
            #expect(Array(answer.body.prefix(3)) == [0xEF, 0xBB, 0xBF])
            #expect(Array(answer.body.dropFirst(3)) == Array(("retry: 1500\r\n\r\n" + Self.event(1, end: "\r\n")).utf8))
            let retryOnly = try await sandbox.send(.GET, "/sse/events?count=1&retry=250")
            #expect(retryOnly.text == "retry: 250\n\n" + Self.event(1))
        }
    }

    @Test("event=, comments=1 and multiline=1 add an event field, a keep-alive comment and a two-line data")
    func optionalFields() async throws {
        try await withSandbox { sandbox in
            let answer = try await sandbox.send(.GET, "/sse/events?count=2&event=tick&comments=1&multiline=1")
            let expected = (1...2).map { n in
                ": keep-alive\nid: \(n)\nevent: tick\ndata: {\"n\":\(n),\ndata: \"two\":true}\n\n"
            }.joined()
            #expect(answer.text == expected)
        }
    }

    @Test("Last-Event-ID: m resumes at m+1; m at or past the end answers 204; an unparseable one starts over; stats list them")
    func resume() async throws {
        try await withSandbox { sandbox in
            let resumed = try await sandbox.send(.GET, "/sse/events?count=5&key=resume", headers: [("Last-Event-ID", "3")])
            #expect(resumed.status == 200 && resumed.text == Self.event(4) + Self.event(5))
            let atEnd = try await sandbox.send(.GET, "/sse/events?count=5&key=resume", headers: [("Last-Event-ID", "5")])
            #expect(atEnd.status == 204 && atEnd.body.isEmpty)
            let past = try await sandbox.send(.GET, "/sse/events?count=5&key=resume", headers: [("Last-Event-ID", "99")])
            #expect(past.status == 204)
            let garbage = try await sandbox.send(.GET, "/sse/events?count=2&key=resume", headers: [("Last-Event-ID", "abc")])
            #expect(garbage.status == 200 && garbage.text == Self.event(1) + Self.event(2))
            _ = try await sandbox.send(.GET, "/sse/events?count=1&key=resume")

            let stats = try await sandbox.json("/sse/stats?key=resume", as: SSEStats.self)
            #expect(stats == SSEStats(connections: 5, open: 0, disconnects: 0, completed: 5, lastEventIDs: ["3", "5", "99", "abc"]))
            #expect(try await sandbox.json("/sse/stats?key=other", as: SSEStats.self) == SSEStats())
            try await sandbox.reset("/sse/reset")
            #expect(try await sandbox.json("/sse/stats?key=resume", as: SSEStats.self) == SSEStats())
        }
    }

    @Test("a wrong parameter answers 400 instead of a stream")
    func badParameters() async throws {
        try await withSandbox { sandbox in
            for query in ["count=-1", "count=1000001", "count=ten", "lineEnding=crcr", "bom=maybe", "intervalMs=-5", "event=a%0Ab"] {
                let answer = try await sandbox.send(.GET, "/sse/events?\(query)")
                #expect(answer.status == 400, "\(query)")
            }
        }
    }

    @Test("intervalMs spaces the events out: 4 events 100 ms apart take at least 300 ms")
    func interval() async throws {
        try await withSandbox { sandbox in
            let start = ContinuousClock.now
            let answer = try await sandbox.send(.GET, "/sse/events?count=4&intervalMs=100")
            #expect(ContinuousClock.now - start >= .milliseconds(300))
            #expect(answer.text == (1...4).map { Self.event($0) }.joined())
        }
    }
}
