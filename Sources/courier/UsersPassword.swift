import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a password comes from: `--password`, `--password-stdin`, or a prompt without echo.
struct UsersPasswordOptions: ParsableArguments {
    @Option(name: .long, help: "The password (visible in shell history and `ps`; prefer the prompt or --password-stdin).") var password: String?
    @Flag(name: .long, help: "Read the password from the first line of stdin.") var passwordStdin = false

    func validate() throws {
        if password != nil, passwordStdin { throw ValidationError("use either --password or --password-stdin") }
    }

    /// The password; prompts (twice when `confirm`) on a terminal with echo off.
    func read(confirm: Bool) throws -> String {
        if let password { return password }
        if passwordStdin {
            guard let line = readLine(strippingNewline: true), !line.isEmpty else { throw ValidationError("--password-stdin: stdin had no password") }
            return line
        }
        guard isatty(STDIN_FILENO) == 1 else {
            throw ValidationError("no password: use --password-stdin (or run in a terminal to be asked)")
        }
        let first = try Self.prompt("Password: ")
        if confirm, try Self.prompt("Repeat password: ") != first { throw ValidationError("the passwords do not match") }
        return first
    }

    /// Reads one line from the terminal with echo off; the prompt goes to stderr.
    private static func prompt(_ text: String) throws -> String {
        Terminal.write(text, to: STDERR_FILENO)
        var saved = termios()
        let canHide = tcgetattr(STDIN_FILENO, &saved) == 0
        if canHide {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
        }
        defer {
            if canHide { _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved) }
            Terminal.write("\n", to: STDERR_FILENO)
        }
        guard let line = readLine(strippingNewline: true), !line.isEmpty else { throw ValidationError("no password given") }
        return line
    }
}
