import AccountsAPI
import ArgumentParser
import Foundation

/// `courier users show`.
struct UsersShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show your account (GET /api/v1/users/{id}).")

    @OptionGroup var options: UsersOptions
    @Option(name: .long, help: "Account id (default: the logged-in account).") var id: Int?

    func run() async throws {
        let accounts = try options.accounts()
        try await UsersOutput.perform(json: options.json) {
            let user = try await accounts.user(id: id)
            return options.json ? UsersOutput.json(user) : UsersOutput.table(user)
        }
    }
}

/// `courier users update`.
struct UsersUpdateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "update", abstract: "Change name, e-mail or age (PATCH /api/v1/users/{id}).")

    @OptionGroup var options: UsersOptions
    @Option(name: .long, help: "Account id (default: the logged-in account).") var id: Int?
    @Option(name: .long, help: "New display name.") var name: String?
    @Option(name: .long, help: "New e-mail address.") var email: String?
    @Option(name: .long, help: "New age, 1–150.") var age: Int?

    func validate() throws {
        if name == nil, email == nil, age == nil { throw ValidationError("give at least one of --name, --email, --age") }
    }

    func run() async throws {
        let accounts = try options.accounts()
        let request = UpdateUserRequest(name: name, email: email, age: age)
        try await UsersOutput.perform(json: options.json) {
            let reply = try await accounts.send(.updateUser(id: try await Self.target(id, accounts), request), as: UserResponse.self)
            guard let user = reply.data else { throw AccountsError.network(.invalidResponse) }
            return options.json ? UsersOutput.json(user) : "✓ \(reply.message ?? "updated")\n" + UsersOutput.table(user)
        }
    }

    /// `id`, or the logged-in account's.
    static func target(_ id: Int?, _ accounts: Accounts) async throws(AccountsError) -> Int {
        if let id { return id }
        guard let session = await accounts.session else { throw .notLoggedIn }
        return session.userId
    }
}

/// `courier users delete`.
struct UsersDeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete your account (DELETE /api/v1/users/{id}).")

    @OptionGroup var options: UsersOptions
    @Option(name: .long, help: "Account id (default: the logged-in account).") var id: Int?
    @Flag(name: .long, help: "Do not ask for confirmation (required when stdin is not a terminal).") var yes = false

    func run() async throws {
        let accounts = try options.accounts()
        if !yes {
            guard isatty(STDIN_FILENO) == 1 else { throw ValidationError("deleting an account needs --yes when stdin is not a terminal") }
            let who = await accounts.session.map { "\($0.username) (#\($0.userId))" } ?? id.map { "#\($0)" } ?? "the account"
            let question = "Delete \(who) on \(accounts.server.absoluteString)? This cannot be undone. [y/N] "
            Terminal.write(TerminalText.shown(question, on: .stderr), to: STDERR_FILENO)
            guard let answer = readLine(), ["y", "yes"].contains(answer.lowercased()) else {
                Terminal.error("not deleted")
                throw ExitCode(ExitCodes.failure)
            }
        }
        try await UsersOutput.perform(json: options.json) {
            let target = try await UsersUpdateCommand.target(id, accounts)
            let message = try await accounts.deleteUser(id: target)
            if options.json { return UsersOutput.json(DeleteSummary(deleted: target, message: message)) }
            return "✓ \(message) (#\(target))"
        }
    }

    /// `--json` output of delete.
    struct DeleteSummary: Encodable {
        var deleted: Int
        var message: String
    }
}
