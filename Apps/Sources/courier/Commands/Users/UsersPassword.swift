import ArgumentParser
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a password comes from: `--password`, `--password-file`, `--password-stdin`,
/// `$COURIER_PASSWORD`, or a prompt without echo.
struct UsersPasswordOptions: ParsableArguments {
    /// The environment variable a password may come from.
    static let environmentName = "COURIER_PASSWORD"

    @Option(
        name: .long,
        help: "The password (visible in shell history and `ps`; prefer the prompt, --password-file, --password-stdin or $COURIER_PASSWORD).")
    var password: String?
    @Option(
        name: .customLong("password-file"),
        help: ArgumentHelp("Read the password from this file (one line; the line break is dropped).", valueName: "path")) var passwordFile: String?
    @Flag(name: .long, help: "Read the password from the first line of stdin.") var passwordStdin = false

    func validate() throws {
        guard [password != nil, passwordFile != nil, passwordStdin].filter({ $0 }).count <= 1 else {
            throw ValidationError("use one of --password, --password-file and --password-stdin")
        }
    }

    /// The password: from the option given, else `$COURIER_PASSWORD`, else a prompt on the terminal with
    /// echo off (twice when `confirm`).
    func read(confirm: Bool, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String {
        if passwordStdin {
            guard let line = readLine(strippingNewline: true), !line.isEmpty else { throw ValidationError("--password-stdin: stdin had no password") }
            return line
        }
        if let given = try SecretSource.resolve(
            flag: password, flagName: "--password", file: passwordFile, fileName: "--password-file",
            environment: [Self.environmentName], from: environment)
        {
            return given
        }
        guard isatty(STDIN_FILENO) == 1 else {
            throw ValidationError("no password: use --password-file, --password-stdin or $\(Self.environmentName) (or run in a terminal to be asked)")
        }
        let first = try Self.prompt("Password: ")
        if confirm, try Self.prompt("Repeat password: ") != first { throw ValidationError("the passwords do not match") }
        return first
    }

    /// Reads one line from the terminal with echo off; the prompt goes to stderr.
    private static func prompt(_ text: String) throws -> String {
        Terminal.write(text, to: STDERR_FILENO)
        guard let line = HiddenInput.readLine(), !line.isEmpty else { throw ValidationError("no password given") }
        return line
    }
}
