import AccountsAPI
import Courier
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Synchronization
import Testing

/// A refresh that fails for a passing reason keeps the saved login; two processes (here two
/// `Accounts` on one credentials file) never present the same refresh token twice.
@Suite("Accounts: refresh on a bad day")
struct AccountsRefreshResilienceTests {
    /// Counts refresh calls and, while `failing`, answers them 503 without reaching the server.
    final class RefreshGate: ClientMiddleware, Sendable {
        private let state = Mutex((failing: false, refreshes: 0))
        var failing: Bool {
            get { state.withLock { $0.failing } }
            set { state.withLock { $0.failing = newValue } }
        }
        var refreshes: Int { state.withLock { $0.refreshes } }

        func intercept(
            _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
            next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
        ) async throws -> (HTTPResponse, HTTPBody?) {
            guard request.path?.hasSuffix("/auth/refresh") == true else { return try await next(request, body, baseURL) }
            let failing = state.withLock { state -> Bool in
                if !state.failing { state.refreshes += 1 }
                return state.failing
            }
            if failing { return (HTTPResponse(status: .serviceUnavailable), nil) }
            return try await next(request, body, baseURL)
        }
    }

    func credentialsFile() -> CredentialsFile {
        CredentialsFile(
            url: FileManager.default.temporaryDirectory.appendingPathComponent("courier-credentials-\(UUID().uuidString)/credentials.json"))
    }

    /// The saved login with its access token replaced by one the server refuses (an expired one).
    func spoilToken(_ file: CredentialsFile, server: URL) throws {
        let data = try Data(contentsOf: file.url)
        var contents = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var sessions = try #require(contents["sessions"] as? [String: [String: Any]])
        for key in sessions.keys { sessions[key]?["token"] = "expired-\(UUID().uuidString)" }
        contents["sessions"] = sessions
        try JSONSerialization.data(withJSONObject: contents).write(to: file.url)
        #expect(try file.session(for: server) != nil)
    }

    @Test("a refresh that fails with a 503 keeps the saved login; the next call refreshes and succeeds")
    func transientFailureKeepsLogin() async throws {
        let sandbox = try await AccountsSandbox.start()
        let name = uniqueName()
        _ = try await sandbox.register(name)
        let file = credentialsFile()
        let gate = RefreshGate()
        _ = try await sandbox.accounts(credentials: file, configuration: .init(middlewares: [gate])).login(username: name, password: "Passw0rd!")
        try spoilToken(file, server: sandbox.baseURL)
        let saved = try #require(try file.session(for: sandbox.baseURL))

        gate.failing = true
        let accounts = sandbox.accounts(credentials: file, configuration: .init(middlewares: [gate]))
        await #expect(throws: AccountsError.self) { _ = try await accounts.user() }
        #expect(try file.session(for: sandbox.baseURL) == saved, "the saved login survives a refresh that could not reach the server")

        gate.failing = false
        let later = sandbox.accounts(credentials: file, configuration: .init(middlewares: [gate]))
        let user = try await later.user()
        #expect(user.username == name)
        await sandbox.finish()
    }

    @Test("two clients on one credentials file refresh once between them; both go on")
    func oneRefreshAcrossClients() async throws {
        let sandbox = try await AccountsSandbox.start()
        let name = uniqueName()
        _ = try await sandbox.register(name)
        let file = credentialsFile()
        let gate = RefreshGate()
        _ = try await sandbox.accounts(credentials: file).login(username: name, password: "Passw0rd!")
        try spoilToken(file, server: sandbox.baseURL)
        // Each reads the file now, so both start with the same refresh token.
        let first = sandbox.accounts(credentials: file, configuration: .init(middlewares: [gate]))
        let second = sandbox.accounts(credentials: file, configuration: .init(middlewares: [gate]))
        async let a = first.user()
        async let b = second.user()
        let (userA, userB) = try await (a, b)
        #expect(userA.username == name && userB.username == name)
        #expect(gate.refreshes == 1, "the second client took the first one's new tokens from the file")
        #expect(try file.session(for: sandbox.baseURL)?.hasToken == true)
        await sandbox.finish()
    }
}
