import ArgumentParser
import Foundation

/// `courier`: try an API, see an error explained, run the sandbox, walk the seed systems.
@main
struct CourierCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "courier",
        abstract: "Courier's command-line tool: HTTP requests, the sandbox server, and clients for real APIs.",
        discussion: """
            Start with `courier demo` (no setup, no network): it runs the sandbox in-process and \
            walks every client against it. `courier request URL` is a curl-like request through \
            Courier; `courier bench URL` loads a URL with many calls, as hey does. Shell \
            completions: `courier --generate-completion-script bash|zsh|fish`.
            \(ExitCodes.help)
            """,
        version: CourierCommand.version,
        subcommands: CLISubcommands.all
    )

    /// `courier --version`: the version of this tool and of the library it is built with.
    static let version = "0.9.0"
}
