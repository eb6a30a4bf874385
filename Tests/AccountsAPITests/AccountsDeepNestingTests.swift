import AccountsAPI
import Courier
import CourierTesting
import Foundation
import Testing

/// User API answers and a credentials file nested 100,000 deep end in an `AccountsError`,
/// never a stack overflow (which would end the whole test process).
@Suite("Accounts: JSON nested 100,000 deep")
struct AccountsDeepNestingTests {
    static let deep = 100_000
    static let nests = [String(repeating: "[", count: deep), String(repeating: #"{"a":"#, count: deep)]

    @Test("a login answer or an error answer nested 100,000 deep is a network error", .timeLimit(.minutes(1)))
    func answers() async {
        for nest in Self.nests {
            for status in [200, 400] {
                let stub = StubTransport()
                stub.on(.post, "/api/v1/auth/login", .json(nest, status: status))
                let accounts = Accounts(server: URL(string: "https://accounts.test")!, configuration: .init(transport: stub))
                do {
                    _ = try await accounts.login(username: "johndoe", password: "P@ssw0rd1")
                    Issue.record("logged in with \(nest.prefix(12))…")
                } catch {
                    guard case .network = error else {
                        Issue.record("\(status): \(error)")
                        continue
                    }
                }
                #expect(await accounts.session == nil)
            }
        }
    }

    @Test("a credentials file nested 100,000 deep is reported as not a credentials file", .timeLimit(.minutes(1)))
    func credentialsFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-deep-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for nest in Self.nests {
            let file = CredentialsFile(url: directory.appendingPathComponent("credentials.json"))
            try Data(nest.utf8).write(to: file.url)
            #expect(throws: AccountsError.self) { try file.session(for: URL(string: "http://127.0.0.1:8080")!) }
        }
    }
}
