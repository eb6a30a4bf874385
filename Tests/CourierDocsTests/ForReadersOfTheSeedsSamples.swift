// Mirrors: Sources/Courier/Courier.docc/Articles/for-readers-of-the-seeds.md
//
// The article's code, line for line (DocsSyncTests checks that every sample is here).
// SampleRunTests runs `seminarUserAPI()` (the sandbox in-process) and `weekly(from:)`.

import AccountsAPI
import Courier
import CourierConcurrency
import CourierLLM
import CourierSandbox
import Foundation

@MainActor final class CoinReportModel {
    var weekly: FetchState<CoinWeekly> = .loading
    var weeklyTask: Task<CoinWeekly, any Error>?

    func updateWeeklyUI() async {
        await TaskResultHandler.apply(
            of: weeklyTask,
            using: { data in data },
            update: { [weak self] state in self?.weekly = state }
        )
    }
}

func weekly(from content: String) throws -> CoinWeekly {
    guard let json = content.extractedJSON else { throw NetworkError.modelRefusal(content) }
    return try JSONDecoder().decode(CoinWeekly.self, from: Data(json.utf8))
}

enum SeedsArticle {
    static func seminarUserAPI() async throws {
        try await SandboxServer.withRunning { sandbox in   // or `swift run courier serve` on port 8080
            let accounts = Accounts(server: sandbox.baseURL)
            let user = try await accounts.register(username: "johndoe", password: "P@ssw0rd!",
                                                   name: "홍길동", email: "hong@example.com", age: 25)
            try await accounts.login(username: "johndoe", password: "P@ssw0rd!")
            let me = try await accounts.user()              // GET /api/v1/users/{id} with the token
            print(user.id == me.id, me.name)                // true 홍길동
        }
    }
}
