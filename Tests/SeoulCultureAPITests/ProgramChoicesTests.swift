import CourierSandbox
import Foundation
import IntegrationTestSupport
import SeoulCultureAPI
import Testing

extension SeoulSuite {
    /// The filter pickers' rows (the seed's FilterView: category and district), from a loaded list.
    @Suite("ProgramQuery's choices: categories and districts with counts")
    struct ProgramChoicesTests {
        /// `programs` counted by `key` by hand (the reference).
        static func counted(_ programs: [CulturalProgram], _ key: (CulturalProgram) -> String) -> [String: Int] {
            programs.reduce(into: [:]) { counts, program in counts[key(program), default: 0] += 1 }
        }

        @Test("every category and district of the loaded list, with its count, by name; the counts add up to the list")
        func everyChoice() async throws {
            let programs = try await withSeoulSandbox { sandbox in try await sandbox.seoul().allPrograms() }
            try #require(programs.count > 1_000)
            let categories = ProgramQuery().categoryChoices(in: programs)
            let districts = ProgramQuery().districtChoices(in: programs)
            #expect(Dictionary(uniqueKeysWithValues: categories.map { ($0.name, $0.count) }) == Self.counted(programs, \.category))
            #expect(Dictionary(uniqueKeysWithValues: districts.map { ($0.name, $0.count) }) == Self.counted(programs, \.district))
            #expect(categories.map(\.name) == categories.map(\.name).sorted())
            #expect(districts.map(\.name) == districts.map(\.name).sorted())
            #expect(districts.count == 25 && Set(districts.map(\.name)) == Set(ProgramQuery.seoulDistricts))
            #expect(categories.reduce(0) { $0 + $1.count } == programs.count)
        }

        @Test("a picker's rows count the programs the other filters leave: its own filter is set aside")
        func facets() async throws {
            let programs = try await withSeoulSandbox { sandbox in try await sandbox.seoul().allPrograms() }
            let query = ProgramQuery(category: "클래식", district: "종로구", isFreeOnly: true)
            let categories = query.categoryChoices(in: programs)
            let districts = query.districtChoices(in: programs)
            let freeInJongno = programs.filter { $0.isFree && $0.district == "종로구" }
            let freeClassical = programs.filter { $0.isFree && $0.category == "클래식" }
            #expect(Dictionary(uniqueKeysWithValues: categories.map { ($0.name, $0.count) }) == Self.counted(freeInJongno, \.category))
            #expect(Dictionary(uniqueKeysWithValues: districts.map { ($0.name, $0.count) }) == Self.counted(freeClassical, \.district))
            // Choosing a row gives exactly its count.
            let row = try #require(categories.first)
            var chosen = query
            chosen.category = row.name
            #expect(chosen.apply(to: programs).count == row.count)
        }

        @Test("a program without a category or district is not a choice; nothing loaded, no choices")
        func emptyNames() throws {
            let named = try CulturalProgram(
                row: CulturalEventRow(codeName: "국악", district: "중구", title: "a", startDate: "2026-11-20", endDate: "2026-11-21"))
            let unnamed = try CulturalProgram(row: CulturalEventRow(title: "b", startDate: "2026-11-20", endDate: "2026-11-21"))
            #expect(ProgramQuery().categoryChoices(in: [named, unnamed, named]) == [FilterChoice(name: "국악", count: 2)])
            #expect(ProgramQuery().districtChoices(in: [unnamed]).isEmpty)
            #expect(ProgramQuery().categoryChoices(in: []).isEmpty)
            #expect(Set(ProgramQuery.seoulDistricts).count == 25)
        }
    }
}
