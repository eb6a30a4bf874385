import Foundation
import Testing

@testable import SeoulCultureAPI

/// What fuzzing found in the Seoul client's parsing (Fuzz/README.md), kept as tests.
@Suite("Fuzz findings (Seoul)")
struct SeoulFuzzFindingsTests {
    @Test(
        "answers that start with < are read without FoundationXML (which crashed on them)",
        arguments: ["<?x?>", "<a \u{F9}=\"\"/>", "<", "<RESULT><CODE>", "<![CDATA["])
    func xmlNeverCrashes(_ text: String) {
        var bytes = Array(text.utf8)
        if text.contains("\u{F9}") { bytes = Array("<a ".utf8) + [0xF9] + Array("=\"\"/>".utf8) }
        #expect(throws: SeoulAPIError.self) { try SeoulAnswerParser.parse(Data(bytes)) }
    }

    @Test("an XML error answer is still read: its CODE and MESSAGE, entities decoded")
    func xmlErrorRead() {
        let xml = "<?xml version=\"1.0\"?><RESULT><CODE>INFO-200</CODE><MESSAGE>해당하는 데이터가 없습니다 &amp; 끝</MESSAGE></RESULT>"
        let result = XMLResult.parse(Data(xml.utf8))
        #expect(result?.code == "INFO-200")
        #expect(result?.message == "해당하는 데이터가 없습니다 & 끝")
    }

    @Test("a number with a leading zero: the scanner decides as JSONDecoder does")
    func leadingZero() {
        let body = Data(#"{"culturalEventInfo":{"list_total_count":01}}"#.utf8)
        func outcome(_ reading: SeoulAnswerParser.JSONReading) -> Bool {
            (try? SeoulAnswerParser.parse(body, reading: reading)) != nil
        }
        #expect(outcome(.scanner) == outcome(.foundation))
    }
}
