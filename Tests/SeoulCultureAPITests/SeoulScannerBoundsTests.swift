import Foundation
import Testing

@testable import SeoulCultureAPI

extension SeoulSuite {
    /// Hostile bodies: the scanner's work stays linear in the number of keys, and no nesting
    /// depth crashes it (or JSONDecoder, which reads what the scanner leaves).
    @Suite("Seoul JSON scanner: linear in keys, bounded in depth")
    struct SeoulScannerBoundsTests {
        static let keyCount = 50_000
        static let deep = 100_000

        /// A page of one row whose `culturalEventInfo` object also holds `count` distinct unknown
        /// keys, then `extra` (a member that may repeat a key).
        func envelope(keys count: Int, extra: String? = nil) -> Data {
            var body = #"{"culturalEventInfo":{"list_total_count":1,"RESULT":{"CODE":"INFO-000","MESSAGE":"ok"},"#
            body += #""row":[{"TITLE":"재즈","STRTDATE":"2026-11-20 00:00:00.0","END_DATE":"2026-11-21 00:00:00.0"}]"#
            body.reserveCapacity(count * 12)
            for index in 0..<count { body += ",\"k\(index)\":\(index)" }
            if let extra { body += "," + extra }
            return Data((body + "}}").utf8)
        }

        @Test("50,000 distinct keys in an object are read by the scanner itself, as JSONDecoder reads them", .timeLimit(.minutes(1)))
        func manyDistinctKeys() throws {
            let body = envelope(keys: Self.keyCount)
            let scanned = try #require(SeoulJSONScanner.envelope(body))
            #expect(scanned.culturalEventInfo?.row?.first?.title == "재즈")
            let fast = try parsedAnswer(body, .scanner).get()
            #expect(fast == (try parsedAnswer(body, .foundation).get()))
            #expect(fast.totalCount == 1 && fast.rows.count == 1)
            #expect(try parsedPrograms(body, .scanner).get().programs.count == 1)
        }

        @Test("a key repeated after 50,000 others is still found, and left to JSONDecoder", .timeLimit(.minutes(1)))
        func repeatAfterManyKeys() throws {
            for extra in [#""list_total_count":2"#, #""k7":0"#, #""k49999":"again""#] {
                let body = envelope(keys: Self.keyCount, extra: extra)
                #expect(SeoulJSONScanner.envelope(body) == nil, "\(extra)")
                #expect(SeoulJSONScanner.programEnvelope(body) == nil, "\(extra)")
                #expect(parsedAnswer(body, .scanner) == parsedAnswer(body, .foundation), "\(extra)")
            }
            // JSONDecoder keeps the first of a repeated key.
            #expect(try parsedAnswer(envelope(keys: Self.keyCount, extra: #""list_total_count":2"#), .scanner).get().totalCount == 1)
        }

        @Test("a row with 50,000 unknown keys reads as JSONDecoder reads it", .timeLimit(.minutes(1)))
        func manyKeysInARow() throws {
            var row = #"{"TITLE":"t","STRTDATE":"2026-11-20 00:00:00.0""#
            for index in 0..<Self.keyCount { row += ",\"x\(index)\":\"v\"" }
            let head = #"{"culturalEventInfo":{"list_total_count":1,"row":["#
            let body = Data((head + row + "}]}}").utf8)
            let fast = try parsedAnswer(body, .scanner).get()
            #expect(fast == (try parsedAnswer(body, .foundation).get()))
            #expect(fast.rows.first?.title == "t")
        }

        @Test("JSON nested 100,000 deep ends in unexpectedAnswer on every path, without a crash", .timeLimit(.minutes(1)))
        func deepNesting() {
            let hostile = [
                String(repeating: "[", count: Self.deep),
                String(repeating: #"{"a":"#, count: Self.deep),
                #"{"culturalEventInfo":"# + String(repeating: #"{"culturalEventInfo":"#, count: Self.deep),
                #"{"culturalEventInfo":{"row":["# + String(repeating: "[", count: Self.deep),
                #"{"culturalEventInfo":{"row":[{"TITLE":"# + String(repeating: #"{"a":["#, count: Self.deep),
                String(repeating: "[", count: Self.deep) + String(repeating: "]", count: Self.deep),
            ]
            for text in hostile {
                let body = Data(text.utf8)
                #expect(SeoulJSONScanner.envelope(body) == nil)
                for reading in [SeoulAnswerParser.JSONReading.scanner, .foundation] {
                    guard case .failure(.unexpectedAnswer) = parsedAnswer(body, reading) else {
                        Issue.record("\(reading): \(text.prefix(40))… was not refused")
                        continue
                    }
                    guard case .failure(.unexpectedAnswer) = parsedPrograms(body, reading) else {
                        Issue.record("\(reading) programs: \(text.prefix(40))… was not refused")
                        continue
                    }
                }
            }
        }
    }
}
