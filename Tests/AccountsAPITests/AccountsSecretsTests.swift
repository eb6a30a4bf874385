import AccountsAPI
import Courier
import CourierTesting
import Foundation
import Logging
import Testing

@testable import CourierSandbox

@Suite("Accounts: secrets stay secret")
struct AccountsSecretsTests {
    @Test("no password or token in any log line, server or client, at trace level")
    func logsHoldNoSecrets() async throws {
        let capture = LogCapture()
        let sandbox = try await AccountsSandbox.start(logger: capture.logger("sandbox"), logRequests: true)
        var configuration = NetworkClient.Configuration()
        configuration.logger = capture.logger("client")
        configuration.middlewares = [LoggingMiddleware(logger: capture.logger("client.http"), level: .debug, logHeaders: true)]
        let accounts = sandbox.accounts(configuration: configuration)
        let password = "Secret9-\(UUID().uuidString.prefix(8))"
        let name = uniqueName()

        try await accounts.register(username: name, password: password, name: "홍길동", email: "hong@example.com", age: 25)
        _ = try? await accounts.login(username: name, password: password + "x")  // a failed login
        _ = try? await accounts.login(username: password, password: password)  // a password typed as the username
        let login = try await accounts.login(username: name, password: password)
        let token = try #require(login.token)
        _ = try await accounts.user()
        _ = try await accounts.updateUser(UpdateUserRequest(age: 26))
        _ = try await sandbox.raw(.get, "/api/v1/users/1", headers: ["Authorization": "Bearer \(token)x"])
        _ = try await accounts.deleteUser()
        await sandbox.stop()

        let lines = capture.lines
        #expect(lines.contains { $0.contains("sandbox") && $0.contains("/api/v1/auth/login") }, "server requests were logged")
        #expect(
            lines.contains { $0.contains("client.http") && $0.lowercased().contains("authorization: <redacted>") }, "headers were logged, redacted")
        #expect(lines.contains { $0.contains("login failed") })
        for line in lines {
            #expect(!line.contains(password), "password in: \(line)")
            #expect(!line.contains(token), "token in: \(line)")
            #expect(!line.contains(LoginTokens.storedHash(of: token)), "token hash in: \(line)")
        }
        try? FileManager.default.removeItem(at: sandbox.dataDirectory)
    }

    @Test("printing or dumping the DTOs and the session hides passwords and tokens")
    func descriptionsRedact() {
        let register = RegisterRequest(username: "johndoe", password: "P@ssw0rd1", name: "홍길동", email: "hong@example.com", age: 25)
        let login = LoginRequest(username: "johndoe", password: "P@ssw0rd1")
        let response = LoginResponse(userId: 1, message: "로그인 성공", token: "tok_abcdefghijklmnop", expiresAt: Date())
        var dumped = ""
        dump(register, to: &dumped)
        dump(login, to: &dumped)
        dump(response, to: &dumped)
        let printed = "\(register) \(login) \(response) \(String(reflecting: register))"
        for text in [dumped, printed] {
            #expect(!text.contains("P@ssw0rd1") && !text.contains("tok_abcdefghijklmnop"))
            #expect(text.contains("johndoe") && text.contains("<redacted>"))
        }
    }

    @Test("login tokens are 43 base64url characters, distinct, and only well-formed bearers are read")
    func tokenFormat() {
        let tokens = (0..<100).map { _ in LoginTokens.make() }
        #expect(Set(tokens).count == 100 && tokens.allSatisfy { $0.count == 43 })
        #expect(LoginTokens.bearer("Bearer \(tokens[0])") == tokens[0])
        #expect(LoginTokens.bearer("bearer  \(tokens[0])") == tokens[0])
        #expect(LoginTokens.bearer("Basic \(tokens[0])") == nil)
        #expect(LoginTokens.bearer("Bearer \(tokens[0]).") == nil)
    }
}
