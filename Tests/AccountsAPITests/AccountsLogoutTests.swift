import AccountsAPI
import Courier
import Foundation
import Testing

@Suite("Accounts: logout revokes on the server")
struct AccountsLogoutTests {
    @Test("after logout the old refresh token is refused (401) and the saved login is gone")
    func logoutRevokes() async throws {
        let sandbox = try await AccountsSandbox.start()
        let name = uniqueName()
        _ = try await sandbox.register(name)
        let file = CredentialsFile(
            url: FileManager.default.temporaryDirectory.appendingPathComponent("courier-logout-\(UUID().uuidString)/credentials.json"))
        let accounts = sandbox.accounts(credentials: file)
        let login = try await accounts.login(username: name, password: "Passw0rd!")
        let refreshToken = try #require(login.refreshToken)
        try await accounts.logout()
        #expect(try file.session(for: sandbox.baseURL) == nil)
        let refresh = try await sandbox.raw(.post, "/api/v1/auth/refresh", json: #"{"refreshToken":"\#(refreshToken)"}"#)
        #expect(refresh.status == 401)
        await sandbox.finish()
    }
}
