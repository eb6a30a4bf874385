// Mirrors: Sources/HackerNewsAPI/HackerNewsAPI.docc/HackerNewsAPI.md
// Mirrors: Sources/SeoulCultureAPI/SeoulCultureAPI.docc/SeoulCultureAPI.md
// Mirrors: Sources/AlanAPI/AlanAPI.docc/AlanAPI.md
//
// The client modules' landing-page samples, line for line (DocsSyncTests checks that every
// sample is here). Compiled only: they talk to the real services. A `return` after a sample
// hands back what it built.

import AlanAPI
import Foundation
import HackerNewsAPI
import SeoulCultureAPI

enum ClientModulesLandingPages {
    static func hackerNews() async throws {
        let hackerNews = HackerNewsClient()                  // the real API; HackerNewsClient(baseURL:) for another server
        for try await ranked in hackerNews.stories(list: .top) {
            print(ranked.count)                 // 1, 2, 3 … as the stories arrive
        }
    }

    static func seoul(apiKey: String) async throws -> [CulturalProgram] {
        let seoul = SeoulCultureClient(key: apiKey)
        let programs = try await seoul.allPrograms()
        let freeConcerts = programs.filter { $0.isFree && $0.category == "클래식" }
        return freeConcerts
    }

    static func alan() async throws {
        let alan = AlanClient(clientIDs: .environment())     // ALAN_CLIENT_ID or ALAN_CLIENT_ID_<TASK>
        let answer = try await alan.ask("비트코인이 뭐야?")
        print(answer.content)
    }
}
