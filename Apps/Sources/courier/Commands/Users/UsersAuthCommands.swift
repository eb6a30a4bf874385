import AccountsAPI
import ArgumentParser
import Foundation

/// `courier users register`.
struct UsersRegisterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "register", abstract: "Create an account (does not log in).")

    @OptionGroup var options: UsersOptions
    @Option(name: .long, help: "3–30 letters, digits, _ . - (unique).") var username: String
    @Option(name: .long, help: "Display name.") var name: String
    @Option(name: .long, help: "E-mail address.") var email: String
    @Option(name: .long, help: "Age, 1–150.") var age: Int
    @OptionGroup var password: UsersPasswordOptions

    func run() async throws {
        let accounts = try options.accounts()
        let secret = try password.read(confirm: true)
        let request = RegisterRequest(username: username, password: secret, name: name, email: email, age: age)
        try await UsersOutput.perform(json: options.json) {
            let reply = try await accounts.send(.register(request), as: UserResponse.self)
            guard let user = reply.data else { throw AccountsError.network(.invalidResponse) }
            return options.json ? UsersOutput.json(user) : "✓ \(reply.message ?? "registered")\n" + UsersOutput.table(user)
        }
    }
}

/// `courier users login`.
struct UsersLoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "login", abstract: "Log in and keep the token for show, update and delete.")

    @OptionGroup var options: UsersOptions
    @Option(name: .long, help: "The account's username.") var username: String
    @OptionGroup var password: UsersPasswordOptions

    func run() async throws {
        let accounts = try options.accounts()
        let secret = try password.read(confirm: false)
        try await UsersOutput.perform(json: options.json, loginHint: false) {
            let login = try await accounts.login(username: username, password: secret)
            let until = login.expiresAt.map { $0.formatted(.iso8601) }
            if options.json {
                return UsersOutput.json(
                    LoginSummary(
                        server: accounts.server.absoluteString, userId: login.userId, username: username,
                        message: login.message, expiresAt: until, tokenSaved: login.token != nil))
            }
            return "✓ \(login.message): \(username) (#\(login.userId)) on \(accounts.server.absoluteString)"
                + (until.map { ", token valid until \($0)" } ?? ", no token (this server does not issue one)")
        }
    }

    /// `--json` output of login: everything but the token.
    struct LoginSummary: Encodable {
        var server: String
        var userId: Int
        var username: String
        var message: String
        var expiresAt: String?
        var tokenSaved: Bool
    }
}

/// `courier users logout`.
struct UsersLogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout", abstract: "Log out: revoke the login on the server and forget it here.",
        discussion:
            "The server is asked to revoke the refresh token (and the access token); the saved login is deleted here even when the server cannot be reached."
    )

    @OptionGroup var options: UsersOptions

    func run() async throws {
        let accounts = try options.accounts()
        try await UsersOutput.perform(json: options.json) {
            let session = await accounts.session
            try await accounts.logout()
            if options.json { return UsersOutput.json(["loggedOut": session != nil]) }
            return session.map { "✓ logged out \($0.username) from \(accounts.server.absoluteString)" }
                ?? "not logged in to \(accounts.server.absoluteString)"
        }
    }
}
