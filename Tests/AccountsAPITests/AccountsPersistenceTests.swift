import AccountsAPI
import Courier
import Foundation
import Testing

@Suite("Accounts: storage survives restarts and races")
struct AccountsPersistenceTests {
    @Test("stopping and starting on the same data directory keeps accounts, edits and tokens")
    func restartKeepsAccounts() async throws {
        let first = try await AccountsSandbox.start()
        let name = uniqueName()
        let id = try await first.register(name)
        let (_, token) = try await first.login(name)
        let edit = try await first.raw(.patch, "/api/v1/users/\(id)", json: #"{"age":41}"#, headers: ["Authorization": "Bearer \(token)"])
        #expect(edit.status == 200)
        await first.stop()

        let second = try await AccountsSandbox.start(dataDirectory: first.dataDirectory)
        let shown = try await second.raw(.get, "/api/v1/users/\(id)", headers: ["Authorization": "Bearer \(token)"])
        #expect(shown.status == 200 && shown.data?["username"] as? String == name && shown.data?["age"] as? Int == 41)
        let (loggedIn, _) = try await second.login(name)
        #expect(loggedIn == id)
        let again = try await second.raw(.post, "/api/v1/users", json: registerJSON(name))
        #expect(again.status == 409)
        let next = try await second.register(uniqueName())
        #expect(next > id, "ids keep growing after a restart")
        await second.finish()
    }

    @Test("50 concurrent registrations of distinct names all succeed with distinct ids")
    func concurrentDistinct() async throws {
        // The race is the subject, not hashing: bcrypt's minimum cost keeps 50 hashes from
        // taking the whole (2-core, loaded) CI machine past the call timeout.
        let sandbox = try await AccountsSandbox.start(configure: { $0.bcryptCost = 4 })
        let prefix = uniqueName("many")
        let ids = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<50 {
                group.addTask { try await sandbox.register("\(prefix)_\(index)") }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(ids.count == 50 && Set(ids).count == 50)
        await sandbox.finish()
    }

    @Test("20 concurrent registrations of one name: exactly one 201, nineteen 409")
    func concurrentSameName() async throws {
        let sandbox = try await AccountsSandbox.start(configure: { $0.bcryptCost = 4 })
        let name = uniqueName("race")
        let statuses = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
            for index in 0..<20 {
                group.addTask {
                    let answer = try await sandbox.raw(.post, "/api/v1/users", json: registerJSON(name, password: "Passw0rd\(index)"))
                    return (answer.status, answer.code)
                }
            }
            return try await group.reduce(into: [(Int, String?)]()) { $0.append($1) }
        }
        #expect(statuses.filter { $0.0 == 201 }.count == 1)
        #expect(statuses.filter { $0.0 == 409 && $0.1 == "CONFLICT" }.count == 19)
        await sandbox.finish()
    }

    @Test("the database file holds bcrypt hashes, never a password or a token")
    func noPlaintextInDatabase() async throws {
        let sandbox = try await AccountsSandbox.start()
        let password = "Plain7ext-\(UUID().uuidString.prefix(8))"
        let name = uniqueName()
        try await sandbox.register(name, password: password)
        let (_, token) = try await sandbox.login(name, password: password)
        await sandbox.stop()  // checkpoint and close, then read every file SQLite wrote

        let files = try FileManager.default.contentsOfDirectory(at: sandbox.dataDirectory, includingPropertiesForKeys: nil)
        #expect(files.contains { $0.lastPathComponent == "accounts.sqlite" })
        var bytes = Data()
        // SQLite may still be removing its -wal/-shm files as it closes: a file that vanished holds nothing.
        for file in files { bytes.append((try? Data(contentsOf: file)) ?? Data()) }
        #expect(bytes.range(of: Data(password.utf8)) == nil)
        #expect(bytes.range(of: Data(token.utf8)) == nil)
        #expect(bytes.range(of: Data(name.utf8)) != nil, "sanity: the account is in these files")
        #expect(bytes.range(of: Data("$2b$10$".utf8)) != nil, "stored as bcrypt, cost 10")
        let mode = try FileManager.default.attributesOfItem(atPath: sandbox.databaseFile.path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        try? FileManager.default.removeItem(at: sandbox.dataDirectory)
    }
}
