import Foundation
import SeoulCultureAPI
import Testing

extension SeoulSuite {
    /// The seed's ShareLink: a program as text for a share sheet.
    @Suite("CulturalProgram.shareText: plain text to share")
    struct ShareTextTests {
        static func program(
            title: String = "서울시향 정기공연", place: String = "세종문화회관 대극장", district: String = "종로구", fee: String = "R석 50,000원",
            isFree: String = "유료", homepage: String = "https://culture.seoul.go.kr/view.do?cultcode=1&menuNo=2", start: String = "2026-11-20",
            end: String = "2026-11-29"
        ) throws -> CulturalProgram {
            try CulturalProgram(
                row: CulturalEventRow(
                    district: district, title: title, place: place, fee: fee, startDate: "\(start) 00:00:00.0", endDate: "\(end) 00:00:00.0",
                    isFree: isFree, homepage: homepage))
        }

        @Test("title, dates as YYYY-MM-DD, place and district, the fee, the homepage: one to a line")
        func lines() throws {
            #expect(
                try Self.program().shareText == """
                    서울시향 정기공연
                    2026-11-20 ~ 2026-11-29
                    세종문화회관 대극장, 종로구
                    유료 · R석 50,000원
                    https://culture.seoul.go.kr/view.do?cultcode=1&menuNo=2
                    """)
            let oneDay = try Self.program(fee: "", isFree: "무료", homepage: "", start: "2026-12-24", end: "2026-12-24")
            #expect(oneDay.shareText == "서울시향 정기공연\n2026-12-24\n세종문화회관 대극장, 종로구\n무료")
            #expect(try Self.program(fee: "무료(사전 예약)", isFree: "무료").shareText.contains("\n무료 · 무료(사전 예약)\n"))
        }

        @Test("no control character survives: escape sequences, 8-bit CSI, line breaks inside a field")
        func hostileText() throws {
            let program = try Self.program(
                title: "\u{1B}]52;c;cm0gLXJm\u{07}공연\u{1B}[2J", place: "홀\u{9B}31m\n2층", district: "중구\u{7F}", fee: "\u{1B}[8m비밀\r\n",
                homepage: "https://example.com/\u{9B}6n")
            #expect(program.homepageLink != nil, "the data kept the link; shareText must drop it")
            let text = program.shareText
            #expect(!text.unicodeScalars.contains { $0.value < 0x0A || (0x0B..<0x20).contains($0.value) || (0x7F...0x9F).contains($0.value) })
            #expect(text.split(separator: "\n").count == 4, "one line per field; the link with a control is left out: \(text)")
            #expect(text.hasPrefix("]52;c;cm0gLXJm 공연 [2J\n"))
            #expect(text.contains("홀 31m 2층, 중구"))
        }
    }
}
