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
        ]
        static let searches = [
            "콘서트", "재즈", "전시", "서울", "교향", "축제 ", "2026", "(", "&", "jazz", "JAZZ", "Jazz", "k", "K", "s", "S",
            "kelvin", "string", "iii", "école", "ÉCOLE", "ⓙ", "ｊａｚｚ", "istanbul", "콘서트".decomposedStringWithCanonicalMapping, "K-POP 콘",
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
            var matched = 0, compared = 0
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
