import Courier
import CourierSandbox
import Foundation
import IntegrationTestSupport
import Testing

@testable import SeoulCultureAPI

extension SeoulSuite {
    /// The scanner is a fast path only: on every body it must end exactly where JSONDecoder does.
    @Suite("Seoul JSON scanner: the same answers as JSONDecoder, sooner")
    struct SeoulJSONScannerTests {
        /// Both ways to programs end the same, and `reading` the rows of the reference agrees too.
        func expectSamePrograms(_ body: Data, sourceLocation: SourceLocation = #_sourceLocation) {
            let reference = parsedPrograms(body, .foundation)
            #expect(parsedPrograms(body, .scanner) == reference, sourceLocation: sourceLocation)
            let viaRows = parsedAnswer(body, .foundation).map {
                CulturalProgramAnswer(totalCount: $0.totalCount, programs: CulturalProgram.programs(from: $0.rows))
            }
            #expect(viaRows == reference, sourceLocation: sourceLocation)
        }

        @Test("every field lands where JSONDecoder puts it: escapes, numbers, null, unknown keys, any key order")
        func fieldsAndEscapes() throws {
            let keys = [
                "CODENAME", "GUNAME", "TITLE", "DATE", "PLACE", "ORG_NAME", "USE_TRGT", "USE_FEE", "INQUIRY", "PLAYER", "PROGRAM", "ETC_DESC",
                "ORG_LINK", "MAIN_IMG", "RGSTDATE", "TICKET", "STRTDATE", "END_DATE", "THEMECODE", "LOT", "LAT", "IS_FREE", "HMPG_ADDR", "PRO_TIME",
            ]
            let distinct = "{" + keys.enumerated().map { "\"\($0.element)\":\"v\($0.offset) 값\"" }.joined(separator: ",") + "}"
            let reversed = "{" + keys.reversed().map { "\"\($0)\":\"\($0.lowercased())\"" }.joined(separator: ", ") + "}"
            let quirky = #"""
                { "TITLE" : "재즈 \"밤\"\n2부 \u00e9 \ud83c\udfb5 a\/b \\ \t", "LAT": 37.5, "LOT": 127, "PLACE": null, "PLAYER": true,
                  "PROGRAM": {"nested": [1, 2, {"x": null}]}, "EXTRA": [1.5e3, -0.25, "s"], "ETC_DESC": "" }
                """#
            let body =
                "\u{FEFF} {\"culturalEventInfo\": {\"list_total_count\": 3, \"RESULT\": {\"CODE\": \"INFO-000\", \"MESSAGE\": \"정상 처리되었습니다\"}, "
                + "\"row\": [\(distinct), \(reversed), \(quirky)], \"unknown\": {\"a\": [true, false]}}, \"other\": 1}\n"
            let fast = try parsedAnswer(body, .scanner).get()
            #expect(fast == (try parsedAnswer(body, .foundation).get()))
            #expect(fast.totalCount == 3 && fast.rows.count == 3)
            #expect(fast.rows[0].codeName == "v0 값" && fast.rows[0].title == "v2 값" && fast.rows[0].time == "v23 값" && fast.rows[0].lat == "v20 값")
            #expect(fast.rows[1].homepage == "hmpg_addr" && fast.rows[1].lot == "lot")
            #expect(fast.rows[2].title == "재즈 \"밤\"\n2부 é 🎵 a/b \\ \t")
            #expect(
                fast.rows[2].lat == "37.5" && fast.rows[2].lot == "127.0" && fast.rows[2].place == "" && fast.rows[2].player == ""
                    && fast.rows[2].program == "")
            expectSamePrograms(Data(body.utf8))
        }

        @Test("result codes, bare answers and broken bodies end the same way both readings")
        func sameOutcomes() {
            let bodies = [
                #"{"RESULT":{"CODE":"INFO-200","MESSAGE":"해당하는 데이터가 없습니다."}}"#,
                #"{"RESULT":{"CODE":"ERROR-336","MESSAGE":"최대 1000건"}}"#,
                #"{"RESULT":{"CODE":"INFO-100","MESSAGE":"인증키"}}"#,
                #"{"culturalEventInfo":{"list_total_count":2,"RESULT":{"CODE":"INFO-000","MESSAGE":"ok"},"row":null}}"#,
                #"{"culturalEventInfo":{"list_total_count":3512.0,"RESULT":{"CODE":"INFO-000","MESSAGE":"ok"},"row":[]}}"#,
                #"{"culturalEventInfo":{"list_total_count":"12","row":[]}}"#,
                #"{"culturalEventInfo":{"RESULT":{"CODE":"INFO-000"},"row":[]}}"#,
                #"{"culturalEventInfo":5}"#,
                #"{"culturalEventInfo":{"row":[{"TITLE":"a"},]}}"#,
                #"{"culturalEventInfo":{"row":["not a row"]}}"#,
                "{\"culturalEventInfo\":{\"row\":[{\"TITLE\":\"tab\there\"}]}}",
                #"{"culturalEventInfo":{"row":[{"TITLE":"\x"}]}}"#,
                #"{"culturalEventInfo":{"row":[{"TITLE":"\ud83c"}]}}"#,
                #"{"RESULT":{"CODE":"INFO-000","MESSAGE":"ok"}} trailing"#,
                #"{"LAT": 01}"#, "{", "[]", "", "null", "{}",
            ]
            for body in bodies {
                #expect(parsedAnswer(body, .scanner) == parsedAnswer(body, .foundation), "body: \(body)")
                expectSamePrograms(Data(body.utf8))
            }
            var invalidUTF8 = Data(#"{"culturalEventInfo":{"row":[{"TITLE":""#.utf8)
            invalidUTF8 += [0xFF, 0xC3]
            invalidUTF8 += Data(#""}]}}"#.utf8)
            #expect(parsedAnswer(invalidUTF8, .scanner) == parsedAnswer(invalidUTF8, .foundation))
            expectSamePrograms(invalidUTF8)
        }

        @Test("a stand-in page over real sockets reads the same both ways")
        func standInPage() async throws {
            try await withSeoulSandbox { sandbox in
                let endpoint = CulturalEventAPI.rows(key: testKey, start: 1, end: 300)
                let body = try await sandbox.seoul().client.response(endpoint).body
                let fast = try parsedAnswer(body, .scanner).get()
                #expect(fast.rows.count == 300 && fast.totalCount == 3_512)
                #expect(fast == (try parsedAnswer(body, .foundation).get()))
            }
        }

        @Test("every stand-in page over real sockets, read straight into programs, gives JSONDecoder's programs")
        func standInPagesAsPrograms() async throws {
            try await withSeoulSandbox { sandbox in
                let seoul = sandbox.seoul()
                var total = 0
                for start in stride(from: 1, through: 3_512, by: 1000) {
                    let body = try await seoul.client.response(CulturalEventAPI.rows(key: testKey, start: start, end: start + 999)).body
                    #expect(SeoulJSONScanner.programEnvelope(body) != nil, "the fast path takes the stand-in's page at \(start)")
                    let fast = try parsedPrograms(body, .scanner).get()
                    let reference = try parsedPrograms(body, .foundation).get()
                    #expect(fast == reference)
                    #expect(fast.totalCount == 3_512 && !fast.programs.isEmpty)
                    #expect(fast.programs.map(\.id) == CulturalProgram.programs(from: try parsedAnswer(body, .foundation).get().rows).map(\.id))
                    total += fast.programs.count
                }
                let client = try await seoul.allPrograms()
                #expect(total >= client.count && client.count > 0)
            }
        }

        @Test("dates, fees, coordinates, links and ids made from the bytes match the rows' reading, quirks and all")
        func programQuirks() throws {
            let rows = [
                // Escaped dates, a number for END_DATE (→ "20260305.0": unusable, DATE's end stands in).
                #"{"TITLE":"　 재즈 ","STRTDATE":"2026-03-01 00:00:00.0","END_DATE":20260305,"DATE":"2026-03-01~2026-03-09","IS_FREE":" 무료 ","LAT":126.97,"LOT":"37.56"}"#,
                // No STRTDATE: DATE's start; END_DATE before the start: clamped; IS_FREE escaped.
                #"{"TITLE":"b","DATE":"2026-04-02~","END_DATE":"2026-04-01 00:00:00.0","IS_FREE":"무료","HMPG_ADDR":" https://a.example/x ","ORG_LINK":"ftp://x","MAIN_IMG":"https://a b"}"#,
                // No usable dates anywhere: left out.
                #"{"TITLE":"c","STRTDATE":"soon","DATE":"~"}"#,
                // Unknown keys, a leading tab in a date, paid, bad coordinates.
                #"{"TITLE":"e","STRTDATE":"\t2026-05-05 00:00:00.0","END_DATE":"2026-05-06","X":{"y":[1]},"IS_FREE":"유료","LAT":"x","LOT":"127"}"#,
                // DATE with more than one "~", and an impossible day in END_DATE.
                #"{"TITLE":"f","STRTDATE":"2026-06-01","END_DATE":"2026-02-30","DATE":"2026-06-01~2026-06-03~2026-06-09","CODENAME":"클래식","GUNAME":"종로구","IS_FREE":"무료"}"#,
                "{}",
            ]
            let body =
                #"{"culturalEventInfo":{"list_total_count":6,"RESULT":{"CODE":"INFO-000","MESSAGE":"ok"},"row":["#
                + rows.joined(separator: ",") + "]}}"
            let data = Data(body.utf8)
            #expect(SeoulJSONScanner.programEnvelope(data) != nil, "the fast path takes it")
            expectSamePrograms(data)
            let fast = try parsedPrograms(data, .scanner).get().programs
            #expect(fast.map(\.title) == ["재즈", "b", "e", "f"])
            #expect(fast.map(\.isFree) == [true, true, false, true])
            #expect(fast[0].startDate.description == "2026-03-01" && fast[0].endDate.description == "2026-03-09")
            #expect(fast[0].latitude == 37.56 && fast[0].longitude == 126.97)
            #expect(fast[1].startDate.description == "2026-04-02" && fast[1].endDate.description == "2026-04-02")
            #expect(fast[1].homepageLink == "https://a.example/x" && fast[1].ticketLink == nil && fast[1].imageLink == nil)
            #expect(fast[2].startDate.description == "2026-05-05" && fast[2].latitude == nil)
            #expect(fast[3].endDate.description == "2026-06-03" && fast[3].category == "클래식" && fast[3].district == "종로구")
        }

        @Test("the eight-bytes-at-a-time checks answer as byte-by-byte ones, on every byte value at every place")
        func wordAtATimeChecks() {
            for length in [0, 1, 7, 8, 9, 15, 16, 17, 40] {
                for place in 0..<max(1, length) {
                    for value in 0...255 {
                        var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                        if length > 0 { bytes[place] = UInt8(value) }
                        bytes.withUnsafeBufferPointer { buffer in
                            let raw = UnsafeRawBufferPointer(buffer)
                            #expect(FieldText.isPrintableASCII(buffer) == !bytes.contains { $0 <= 0x20 || $0 >= 0x7F })
                            #expect(SeoulJSONScanner.isASCII(raw) == !bytes.contains { $0 >= 0x80 })
                            let stop = bytes.firstIndex { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 < 0x20 } ?? length
                            #expect(SeoulJSONScanner.plainRun(raw, from: 0) == stop)
                        }
                    }
                }
            }
        }

        @Test("a key twice is left to JSONDecoder, which keeps the first")
        func repeatedKeys() throws {
            let bodies = [
                #"{"culturalEventInfo":{"row":[{"TITLE":"first","STRTDATE":"2026-01-01","TITLE":"second"}]}}"#,
                #"{"culturalEventInfo":{"row":[{"TITLE":"t","STRTDATE":"2026-01-01","STRTDATE":"2026-02-01"}]}}"#,
                #"{"culturalEventInfo":{"list_total_count":1,"list_total_count":2,"row":[]}}"#,
                #"{"RESULT":{"CODE":"INFO-200","MESSAGE":"a"},"RESULT":{"CODE":"INFO-100","MESSAGE":"b"}}"#,
            ]
            for body in bodies {
                #expect(SeoulJSONScanner.envelope(Data(body.utf8)) == nil && SeoulJSONScanner.programEnvelope(Data(body.utf8)) == nil)
                #expect(parsedAnswer(body, .scanner) == parsedAnswer(body, .foundation), "body: \(body)")
                expectSamePrograms(Data(body.utf8))
            }
            #expect(try parsedAnswer(bodies[0], .scanner).get().rows.first?.title == "first")
            #expect(try parsedPrograms(Data(bodies[1].utf8), .scanner).get().programs.first?.startDate.description == "2026-01-01")
        }

        @Test("bad UTF-8 in a field the model does not keep, or in a row left out, fails as JSONDecoder fails")
        func badBytesAnywhere() {
            let head = Data(#"{"culturalEventInfo":{"RESULT":{"CODE":"INFO-000","MESSAGE":"ok"},"row":[{"TITLE":"t","STRTDATE":"2026-01-01","#.utf8)
            let tail = Data(#""}]}}"#.utf8)
            let badBytes: [[UInt8]] = [[0xFF], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0xEA, 0xB0]]
            for bad in badBytes {
                for field in ["RGSTDATE", "THEMECODE", "END_DATE", "DATE", "IS_FREE", "LAT"] {
                    let body = head + Data("\"\(field)\":\"x".utf8) + Data(bad) + tail
                    #expect(SeoulJSONScanner.programEnvelope(body) == nil, "\(field) with \(bad)")
                    expectSamePrograms(body)
                }
                let leftOut = Data(#"{"culturalEventInfo":{"row":[{"TITLE":"no dates","THEMECODE":""#.utf8) + Data(bad) + tail
                expectSamePrograms(leftOut)
                #expect(bad.withUnsafeBytes { SeoulJSONScanner.isValidUTF8($0) } == (String(validating: bad, as: UTF8.self) != nil))
            }
            for good: [UInt8] in [[0xF0, 0x9F, 0x8E, 0xB5], [0xEA, 0xB0, 0x80], [0xC3, 0xA9], Array("ascii".utf8)] {
                #expect(good.withUnsafeBytes { SeoulJSONScanner.isValidUTF8($0) })
            }
        }
    }
}
