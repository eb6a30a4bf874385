import Courier
import CourierSandbox
import CourierTestSupport
import Foundation
import SeoulCultureAPI
import Testing

extension SeoulSuite {
    /// The scanner is a fast path only: on every body it must end exactly where JSONDecoder does.
    @Suite("Seoul JSON scanner: the same answers as JSONDecoder, sooner")
    struct SeoulJSONScannerTests {
        /// What parsing `body` ends in with `reading`.
        func outcome(_ body: String, _ reading: SeoulAnswerParser.JSONReading) -> Result<CulturalEventAnswer, SeoulAPIError> {
            outcome(Data(body.utf8), reading)
        }

        func outcome(_ body: Data, _ reading: SeoulAnswerParser.JSONReading) -> Result<CulturalEventAnswer, SeoulAPIError> {
            do throws(SeoulAPIError) {
                return .success(try SeoulAnswerParser.parse(body, reading: reading))
            } catch {
                return .failure(error)
            }
        }

        @Test("every field lands where JSONDecoder puts it: escapes, numbers, null, unknown keys, any key order")
        func fieldsAndEscapes() throws {
            let keys = ["CODENAME", "GUNAME", "TITLE", "DATE", "PLACE", "ORG_NAME", "USE_TRGT", "USE_FEE", "INQUIRY", "PLAYER", "PROGRAM", "ETC_DESC",
                        "ORG_LINK", "MAIN_IMG", "RGSTDATE", "TICKET", "STRTDATE", "END_DATE", "THEMECODE", "LOT", "LAT", "IS_FREE", "HMPG_ADDR", "PRO_TIME"]
            let distinct = "{" + keys.enumerated().map { "\"\($0.element)\":\"v\($0.offset) 값\"" }.joined(separator: ",") + "}"
            let reversed = "{" + keys.reversed().map { "\"\($0)\":\"\($0.lowercased())\"" }.joined(separator: ", ") + "}"
            let quirky = #"""
            { "TITLE" : "재즈 \"밤\"\n2부 \u00e9 \ud83c\udfb5 a\/b \\ \t", "LAT": 37.5, "LOT": 127, "PLACE": null, "PLAYER": true,
              "PROGRAM": {"nested": [1, 2, {"x": null}]}, "EXTRA": [1.5e3, -0.25, "s"], "ETC_DESC": "" }
            """#
            let body = "\u{FEFF} {\"culturalEventInfo\": {\"list_total_count\": 3, \"RESULT\": {\"CODE\": \"INFO-000\", \"MESSAGE\": \"정상 처리되었습니다\"}, "
                + "\"row\": [\(distinct), \(reversed), \(quirky)], \"unknown\": {\"a\": [true, false]}}, \"other\": 1}\n"
            let fast = try outcome(body, .scanner).get()
            #expect(fast == (try outcome(body, .foundation).get()))
            #expect(fast.totalCount == 3 && fast.rows.count == 3)
            #expect(fast.rows[0].codeName == "v0 값" && fast.rows[0].title == "v2 값" && fast.rows[0].time == "v23 값" && fast.rows[0].lat == "v20 값")
            #expect(fast.rows[1].homepage == "hmpg_addr" && fast.rows[1].lot == "lot")
            #expect(fast.rows[2].title == "재즈 \"밤\"\n2부 é 🎵 a/b \\ \t")
            #expect(fast.rows[2].lat == "37.5" && fast.rows[2].lot == "127.0" && fast.rows[2].place == "" && fast.rows[2].player == "" && fast.rows[2].program == "")
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
                #expect(outcome(body, .scanner) == outcome(body, .foundation), "body: \(body)")
            }
            var invalidUTF8 = Data(#"{"culturalEventInfo":{"row":[{"TITLE":""#.utf8)
            invalidUTF8 += [0xFF, 0xC3]
            invalidUTF8 += Data(#""}]}}"#.utf8)
            #expect(outcome(invalidUTF8, .scanner) == outcome(invalidUTF8, .foundation))
        }

        @Test("a stand-in page over real sockets reads the same both ways")
        func standInPage() async throws {
            try await withSeoulSandbox { sandbox in
                let endpoint = CulturalEventAPI.rows(key: testKey, start: 1, end: 300)
                let body = try await sandbox.seoul().client.response(endpoint).body
                let fast = try outcome(body, .scanner).get()
                #expect(fast.rows.count == 300 && fast.totalCount == 3_512)
                #expect(fast == (try outcome(body, .foundation).get()))
            }
        }
    }
}
