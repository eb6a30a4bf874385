import Courier
import Foundation
import SeoulCultureAPI
import Testing

extension SeoulSuite {
    @Suite("Title search: the byte-level fast path answers as Foundation's case-insensitive search")
    struct TitleSearchTests {
        /// Titles a byte search could get wrong: decomposed Hangul, letters that fold to ASCII,
        /// accented capitals, circled and full-width letters, Roman numerals.
        static let trickyTitles = [
            "콘서트".decomposedStringWithCanonicalMapping + " 나이트",  // jamo, not syllables
            "\u{212A}elvin 재즈 클럽",  // KELVIN SIGN folds to k
            "ſtring quartet",  // LONG S folds to s
            "ÉCOLE d'été 콘서트", "İstanbul 음악", "Ⓙazz ⅰⅱ Ⅲ", "ＪＡＺＺ 페스티벌", "JAZZ & Blues (재즈)", "k-pop 콘서트 2026",
            "\u{2329}재즈\u{232A} 콘서트", "a\u{2000}b 전시", "1 \u{2260} 2 공연", "micro µ 전시",  // canonical singletons and ≠ = "=" + U+0338
        ]
        static let searches = [
            "콘서트", "재즈", "전시", "서울", "교향", "축제 ", "2026", "(", "&", "jazz", "JAZZ", "Jazz", "k", "K", "s", "S",
            "kelvin", "string", "iii", "école", "ÉCOLE", "ⓙ", "ｊａｚｚ", "istanbul", "콘서트".decomposedStringWithCanonicalMapping, "K-POP 콘",
            "〈재즈〉", "a\u{2002}b", "=", "1 =", "\u{3008}", "µ", "Μ",
        ]

        @Test("every search over every stand-in title and the tricky ones: the same answer as range(of:options: .caseInsensitive)")
        func sameAsFoundation() async throws {
            let programs = try await withSeoulSandbox { sandbox in
                try await sandbox.seoul(today: longAgo).allPrograms()
            }
            #expect(programs.count > 3_000)
            let base = programs[0]
            let tricky = Self.trickyTitles.map { title in
                var program = base
                program.title = title
                return program
            }
            // Words of real titles as searches too (first and last two characters).
            let words = programs.prefix(40).flatMap { [String($0.title.prefix(2)), String($0.title.suffix(2))] }
            var matched = 0
            var compared = 0
            for search in Self.searches + words {
                let query = ProgramQuery(search: search)
                for program in programs + tricky {
                    let expected = program.title.range(of: search, options: [.caseInsensitive]) != nil
                    let answer = query.matches(program)
                    if answer != expected {
                        Issue.record("\"\(search)\" in \"\(program.title)\": \(answer), Foundation says \(expected)")
                    }
                    compared += 1
                    matched += expected ? 1 : 0
                }
            }
            #expect(compared > 100_000)
            #expect(matched > 1_000)  // the searches do hit titles, so both answers are exercised
        }

        @Test("current and upcoming programs sort by start day, then title in String's order, then id — also for titles that are not plain")
        func sortOrder() async throws {
            let programs = try await withSeoulSandbox { sandbox in
                try await sandbox.seoul(today: longAgo).allPrograms()
            }
            // The tricky titles on one start day with plain ones, so their order is decided by title.
            let base = try #require(programs.first { $0.endDate >= anchorDay })
            let sameDay = (Self.trickyTitles + ["재즈 콘서트", "Jazz", "jazz", "가", "각", "ㄱ", "콘서트"]).enumerated().map { offset, title in
                var program = base
                program.title = title
                program.id = String(format: "zz%04d", offset)
                return program
            }
            let all =
                programs + sameDay
                + sameDay.prefix(3).map {
                    var copy = $0
                    copy.id += "b"
                    return copy
                }
            let sorted = CulturalProgram.currentAndUpcoming(all, today: anchorDay)
            let reference = all.filter { $0.endDate >= anchorDay }.sorted { a, b in
                if a.startDate != b.startDate { return a.startDate < b.startDate }
                if a.title != b.title { return a.title < b.title }
                return a.id < b.id
            }
            #expect(sorted.count == reference.count)
            #expect(sorted.map(\.id) == reference.map(\.id))
            #expect(sorted.filter { $0.id.hasPrefix("zz") }.count == sameDay.count + 3)  // the tricky ones were kept and ordered
        }

        @Test("an empty search matches everything; the search text reads back")
        func emptySearch() {
            #expect(ProgramQuery(search: "").search == nil)
            #expect(ProgramQuery(search: "재즈").search == "재즈")
            var query = ProgramQuery()
            query.search = "JAZZ"
            #expect(query == ProgramQuery(search: "JAZZ"))
        }
    }
}
