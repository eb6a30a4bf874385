import Courier
import Foundation
import SeoulCultureAPI
import Testing

extension SeoulSuite {
    @Suite("Seoul model: days, coordinates, ids, path")
    struct SeoulModelTests {
        @Test("dates lose their \" 00:00:00.0\"; impossible dates are rejected")
        func days() {
            #expect(SeoulDay("2026-10-03 00:00:00.0")?.description == "2026-10-03")
            #expect(SeoulDay("2026-02-30") == nil)
            #expect(SeoulDay("2028-02-29") != nil)
            #expect(SeoulDay("yesterday") == nil)
            #expect(SeoulDay(year: 2026, month: 12, day: 31)!.adding(days: 1).description == "2027-01-01")
            // 2026-11-22 15:30 UTC is already 2026-11-23 in Seoul.
            #expect(SeoulDay.today(now: Date(timeIntervalSince1970: 1_795_361_400)).description == "2026-11-23")
        }

        @Test("coordinates are decided by value range, not by key")
        func coordinates() {
            #expect(CulturalProgram.coordinates("37.57", "126.98") == (37.57, 126.98))
            #expect(CulturalProgram.coordinates("126.98", "37.57") == (37.57, 126.98))
            #expect(CulturalProgram.coordinates("", "126.98") == (nil, nil))
            #expect(CulturalProgram.coordinates("0", "0") == (nil, nil))
        }

        @Test("a program's id is stable and depends on the row")
        func ids() throws {
            let row = CulturalEventRow(
                codeName: "클래식", district: "종로구", title: "서울시향 정기연주회", place: "세종문화회관",
                startDate: "2026-12-01 00:00:00.0", endDate: "2026-12-02 00:00:00.0", lot: "37.5", lat: "126.9", isFree: "무료")
            let program = try CulturalProgram(row: row)
            #expect(program.id == CulturalProgram.stableID(for: row) && program.id.count == 12)
            var other = row
            other.title += " 2"
            #expect(CulturalProgram.stableID(for: other) != program.id)
            #expect(program.latitude == 37.5 && program.longitude == 126.9 && program.isFree)
            #expect(program.startDate.description == "2026-12-01" && program.endDate.description == "2026-12-02")
        }

        @Test("optional filters: a skipped one before a given one is a space; values are percent-encoded")
        func path() throws {
            let filter = CulturalEventFilter(title: "재즈/블루스", date: SeoulDay("2026-11-23"))
            let segments = CulturalEventAPI.rows(key: "k", start: 1, end: 1000, filter: filter).pathSegments
            #expect(segments == ["k", "json", "culturalEventInfo", "1", "1000", " ", "재즈/블루스", "2026-11-23"])
            let path = try CulturalEventAPI.rows(key: "k", start: 1, end: 1000, filter: filter).httpRequest().path ?? ""
            #expect(path.hasPrefix("/k/json/culturalEventInfo/1/1000/%20/%EC%9E%AC%EC%A6%88%2F"))
        }
    }
}
