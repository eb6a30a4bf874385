import AccountsAPI
import ArgumentParser
import Courier
import Foundation

/// `courier users …`: the seminar's User API from the terminal, against `courier serve` or any
/// server with the same API.
struct UsersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: "Register, log in and manage an account on a User API server (the seminar's five-call API).",
        discussion: """
            Works against `courier serve` (default http://127.0.0.1:8080) or any server with the \
            same API (--server). `login` keeps the token in a credentials file only you can read \
            (default $XDG_CONFIG_HOME/courier/credentials.json or ~/.config/courier/credentials.json); \
            show, update and delete use it. Passwords are read without echo from the terminal (Ctrl-C \
            there puts echo back), or from --password-file PATH, stdin with --password-stdin, or \
            $COURIER_PASSWORD; --password is visible in `ps`.
            Example: courier users register --username johndoe --name 홍길동 --email hong@example.com --age 25
            \(ExitCodes.help)
            """,
        subcommands: [
            UsersRegisterCommand.self, UsersLoginCommand.self, UsersLogoutCommand.self,
            UsersShowCommand.self, UsersUpdateCommand.self, UsersDeleteCommand.self,
        ]
    )
}

/// Options every `courier users` subcommand takes.
struct UsersOptions: ParsableArguments {
    @Option(name: .long, help: "The User API server.") var server: String = "http://127.0.0.1:8080"
    @Flag(name: .long, help: "Print JSON instead of text.") var json = false
    @Option(name: .long, help: "The credentials file (default: $XDG_CONFIG_HOME/courier/credentials.json).") var credentials: String?
    @Flag(name: .long, help: "Allow plain http:// to a non-loopback host.") var allowInsecure = false

    /// The server URL, checked.
    func serverURL() throws -> URL {
        guard let url = URL(string: server), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil else {
            throw ValidationError("--server must be an http:// or https:// URL, e.g. http://127.0.0.1:8080")
        }
        return url
    }

    /// The service for ``server``, with the credentials file.
    func accounts() throws -> Accounts {
        let url = try serverURL()
        var configuration = NetworkClient.Configuration()
        if allowInsecure, let host = url.host { configuration.insecureHostsAllowed.insert(host.lowercased()) }
        let file = CredentialsFile(url: credentials.map { URL(fileURLWithPath: $0) } ?? CredentialsFile.defaultURL)
        return Accounts(server: url, configuration: configuration, credentials: file)
    }
}
