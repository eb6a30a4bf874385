import AccountsAPI
import Courier
import Foundation
import Testing

@Suite("Accounts: the seminar flow through Courier")
struct AccountsFlowTests {
    @Test("register → login → show → update → forbidden on another user → delete, over real sockets")
    func wholeFlow() async throws {
        let sandbox = try await AccountsSandbox.start()
        let accounts = sandbox.accounts()
        let alice = uniqueName("alice")
        let bob = uniqueName("bob")

        let created = try await accounts.register(username: alice, password: "P@ssw0rd1", name: "홍길동", email: "hong@example.com", age: 25)
        #expect(
            created.username == alice && created.name == "홍길동" && created.email == "hong@example.com" && created.age == 25
                && created.status == "ACTIVE")
        let other = try await accounts.register(RegisterRequest(username: bob, password: "B0bsecret", name: "김철수", email: "kim@example.com", age: 30))
        #expect(other.id != created.id)
        #expect(await accounts.session == nil)

        let login = try await accounts.login(username: alice, password: "P@ssw0rd1")
        #expect(login.userId == created.id && login.message == "로그인 성공")
        let token = try #require(login.token)
        #expect(token.count == 43)
        let expiresAt = try #require(login.expiresAt)
        #expect(expiresAt > Date().addingTimeInterval(3500) && expiresAt < Date().addingTimeInterval(3700))
        #expect(await accounts.session?.userId == created.id)

        let shown = try await accounts.user()
        #expect(shown == created)

        let updated = try await accounts.updateUser(UpdateUserRequest(name: "김철수", age: 30))
        #expect(updated.name == "김철수" && updated.age == 30 && updated.email == "hong@example.com" && updated.username == alice)
        #expect(try await accounts.user(id: created.id) == updated)

        await #expect(
            throws: AccountsError.server(
                status: 403, code: "FORBIDDEN", message: "본인 계정만 조회·수정·삭제할 수 있습니다", error: .remoteError(403, "본인 계정만 조회·수정·삭제할 수 있습니다"))
        ) {
            try await accounts.user(id: other.id)
        }
        await #expect(throws: AccountsError.self) { try await accounts.deleteUser(id: other.id) }

        let message = try await accounts.deleteUser()
        #expect(message == "회원탈퇴가 완료되었습니다")
        #expect(await accounts.session == nil, "deleting your own account logs out")

        // The account and its token are gone on the server.
        let afterDelete = try await sandbox.raw(.get, "/api/v1/users/\(created.id)", headers: ["Authorization": "Bearer \(token)"])
        #expect(afterDelete.status == 401 && afterDelete.code == "UNAUTHORIZED")
        await #expect(throws: AccountsError.server(status: 401, code: "UNAUTHORIZED", message: "아이디 또는 비밀번호가 올바르지 않습니다", error: .unauthorized(401))) {
            try await accounts.login(username: alice, password: "P@ssw0rd1")
        }
        // Bob is untouched and can log in.
        #expect(try await accounts.login(username: bob, password: "B0bsecret").userId == other.id)
        await sandbox.finish()
    }

    @Test("the wrapper's message becomes the error: AccountsError and plain NetworkError via UserAPI")
    func errorMessages() async throws {
        let sandbox = try await AccountsSandbox.start()
        let name = uniqueName()
        try await sandbox.register(name)
        let accounts = sandbox.accounts()

        do {
            try await accounts.register(username: name, password: "Passw0rd!", name: "홍길동", email: "hong@example.com", age: 25)
            Issue.record("a taken username was accepted")
        } catch {
            #expect(error == .server(status: 409, code: "CONFLICT", message: "이미 존재하는 사용자명", error: .remoteError(409, "이미 존재하는 사용자명")))
            #expect(error.localizedDescription == "이미 존재하는 사용자명")
            #expect(error.statusCode == 409)
        }

        // Without Accounts: the endpoint enum on a plain NetworkClient bound to the sandbox.
        let client = NetworkClient(configuration: .init(baseURL: sandbox.baseURL))
        let request = RegisterRequest(username: name, password: "Passw0rd!", name: "홍길동", email: "hong@example.com", age: 25)
        await #expect(throws: NetworkError.remoteError(409, "이미 존재하는 사용자명")) {
            _ = try await client.request(UserAPI.register(request), as: APIResponse<UserResponse>.self)
        }
        await #expect(throws: NetworkError.unauthorized(401)) {
            _ = try await client.request(UserAPI.getUser(id: 1), as: APIResponse<UserResponse>.self)
        }
        let login = try await client.request(UserAPI.login(LoginRequest(username: name, password: "Passw0rd!")), as: APIResponse<LoginResponse>.self)
        #expect(login.success && login.code == "OK" && login.data?.token != nil)

        await #expect(throws: AccountsError.notLoggedIn) { try await accounts.user() }
        await #expect(throws: AccountsError.network(.networkError(URLError(.cannotConnectToHost)))) {
            try await Accounts(server: URL(string: "http://127.0.0.1:9")!).user(id: 1)
        }
        await sandbox.finish()
    }

    @Test("the CLI's credentials file: 0600, resumes the login in a new process, removed on logout")
    func credentialsFile() async throws {
        let sandbox = try await AccountsSandbox.start()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-creds-\(UUID().uuidString)")
        let file = CredentialsFile(url: folder.appendingPathComponent("credentials.json"))
        let name = uniqueName()
        let id = try await sandbox.register(name)

        let first = sandbox.accounts(credentials: file)
        let login = try await first.login(username: name, password: "Passw0rd!")
        let attributes = try FileManager.default.attributesOfItem(atPath: file.url.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let folderAttributes = try FileManager.default.attributesOfItem(atPath: folder.path)
        #expect((folderAttributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        let token = try #require(login.token)
        #expect(try String(contentsOf: file.url, encoding: .utf8).contains(token), "the file is where the token lives")

        let second = sandbox.accounts(credentials: file)  // as a new CLI run would
        #expect(await second.session?.userId == id)
        #expect(try await second.user().username == name)
        #expect(String(describing: await second.session).contains(token) == false)

        try await second.logout()
        #expect(FileManager.default.fileExists(atPath: file.url.path) == false)
        #expect(await sandbox.accounts(credentials: file).session == nil)
        try? FileManager.default.removeItem(at: folder)
        await sandbox.finish()
    }

    @Test("an expired token is refreshed by itself: the call succeeds and the new tokens are kept")
    func expiredTokenRefreshes() async throws {
        // 4 s: the refreshed token must outlive the call that uses it on a loaded CI machine.
        let sandbox = try await AccountsSandbox.start { $0.tokenLifetime = .seconds(4) }
        let name = uniqueName()
        try await sandbox.register(name)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-refresh-\(UUID().uuidString)")
        let file = CredentialsFile(url: folder.appendingPathComponent("credentials.json"))
        let accounts = sandbox.accounts(credentials: file)
        let login = try await accounts.login(username: name, password: "Passw0rd!")
        let firstToken = try #require(login.token)
        #expect(login.refreshToken != nil)
        try await Task.sleep(for: .milliseconds(4200))
        #expect(try await accounts.user().username == name)
        let saved = try #require(try file.session(for: sandbox.baseURL))
        #expect(saved.hasToken && saved.canRefresh)
        #expect(try String(contentsOf: file.url, encoding: .utf8).contains(firstToken) == false, "the refreshed token replaced the old one")
        try? FileManager.default.removeItem(at: folder)
        await sandbox.finish()
    }

    @Test("a login that can no longer be refreshed is forgotten after the server's 401, whose message is shown")
    func deadLoginForgetsSession() async throws {
        let sandbox = try await AccountsSandbox.start {
            $0.tokenLifetime = .seconds(1)
            $0.refreshTokenLifetime = .seconds(1)
        }
        let name = uniqueName()
        try await sandbox.register(name)
        let accounts = sandbox.accounts()
        try await accounts.login(username: name, password: "Passw0rd!")
        try await Task.sleep(for: .milliseconds(1200))
        await #expect(throws: AccountsError.server(status: 401, code: "UNAUTHORIZED", message: "토큰이 만료되었습니다. 다시 로그인하세요", error: .unauthorized(401))) {
            try await accounts.user()
        }
        #expect(await accounts.session == nil)
        await sandbox.finish()
    }
}
