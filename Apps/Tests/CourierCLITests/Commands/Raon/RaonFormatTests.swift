import Foundation
import SeoulCultureAPI
import Testing

@testable import courier

/// How `courier raon` builds its directions links and words the offline notice.
@Suite("courier raon: route links and the offline notice's age")
struct RaonFormatTests {
    static func program(place: String, lat: String = "37.5755", lot: String = "126.97609") throws -> CulturalProgram {
        try CulturalProgram(row: CulturalEventRow(title: "t", place: place, startDate: "2026-11-20", endDate: "2026-11-21", lot: lot, lat: lat))
    }

    @Test("public-transit routes to the program's coordinates: Naver (lng,lat, on transit) and Kakao (lat,lng); the place one path-safe segment")
    func transitRoutes() throws {
        let links = Dictionary(uniqueKeysWithValues: RaonFormat.mapLinks(try Self.program(place: "홀 A/B, 2층")).map { ($0.0, $0.1?.absoluteString) })
        let name = "%ED%99%80%20A%2FB%2C%202%EC%B8%B5"
        #expect(links["naver transit"] == "https://map.naver.com/p/directions/-/126.97609,37.5755,\(name)/-/transit")
        #expect(links["kakao route"] == "https://map.kakao.com/link/to/\(name),37.5755,126.97609")
        #expect(links["naver map"] != nil && links["kakao map"] != nil && links["search place"] != nil, "today's map points stay")
    }

    @Test("without coordinates there is no map point or route, only the place search")
    func noCoordinates() throws {
        let links = RaonFormat.mapLinks(try Self.program(place: "어딘가", lat: "", lot: ""))
        #expect(links.map(\.0) == ["search place"])
    }

    @Test(
        "the saved answers' age in words",
        arguments: [(0, "0 s"), (59, "59 s"), (60, "1 min"), (3_599, "59 min"), (3 * 3_600 + 5, "3 h"), (47 * 3_600, "47 h"), (50 * 3_600, "2 days")])
    func age(seconds: Int, words: String) {
        #expect(OfflineNotice.age(seconds) == words)
    }
}
