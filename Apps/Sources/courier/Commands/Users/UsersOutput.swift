import AccountsAPI
import ArgumentParser
import Courier
import Foundation

/// How `courier users` prints results and errors.
enum UsersOutput {
    /// Runs `body` and prints its text; an ``AccountsError`` is printed (stderr, or stdout as
    /// JSON with `--json`) and becomes the exit code of its ``NetworkError/Family``.
    /// `loginHint` adds "log in first" to a 401 (not wanted when the 401 answers a login).
    static func perform(json: Bool, loginHint: Bool = true, _ body: () async throws -> String) async throws {
        do {
            let text = try await body()
            if json { Terminal.outputJSON(text) } else { Terminal.output(text) }
        } catch let error as AccountsError {
            if json {
                Terminal.outputJSON(
                    Self.json(ErrorOutput(error: .init(status: error.statusCode, code: code(of: error), message: error.userMessage(in: .preferred)))))
            } else {
                Terminal.error(
                    "✗ " + error.userMessage(in: .preferred).replacingOccurrences(of: "\n", with: " ") + hint(for: error, loginHint: loginHint))
            }
            throw ExitCode(exitCode(for: error))
        }
    }

    static func exitCode(for error: AccountsError) -> Int32 {
        switch error {
        case .server(_, _, _, let network), .network(let network): ExitCodes.code(for: network.family)
        case .notLoggedIn: ExitCodes.code(for: .authorization)
        case .credentials: ExitCodes.failure
        }
    }

    private static func code(of error: AccountsError) -> String? {
        switch error {
        case .server(_, let code, _, _): code
        case .network(let network): network.caseName
        case .notLoggedIn: "NOT_LOGGED_IN"
        case .credentials: "CREDENTIALS_FILE"
        }
    }

    private static func hint(for error: AccountsError, loginHint: Bool) -> String {
        switch error {
        case .notLoggedIn: "\n  → log in first: courier users login --username NAME"
        case .server(401, let code, _, _) where loginHint: "\n  (401 \(code ?? "")) → log in again: courier users login --username NAME"
        case .server(let status, let code, _, _): "\n  (\(status) \(code ?? ""))"
        case .network(.networkError(let urlError)) where urlError.code == .cannotConnectToHost:
            "\n  (\(NetworkError.networkError(urlError))) → is the server running? start one with: courier serve"
        case .network(let network): "\n  (\(network))"
        case .credentials: ""
        }
    }

    /// A person-readable account.
    static func table(_ user: UserResponse) -> String {
        [
            ("id", "\(user.id)"), ("username", user.username), ("name", user.name), ("email", user.email), ("age", "\(user.age)"),
            ("status", user.status),
        ]
        .map { "  \($0.0.padding(toLength: 9, withPad: " ", startingAt: 0))\($0.1)" }
        .joined(separator: "\n")
    }

    /// Pretty, sorted JSON.
    static func json(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    private struct ErrorOutput: Encodable {
        var error: Detail
        struct Detail: Encodable {
            var status: Int?
            var code: String?
            var message: String
        }
    }
}
