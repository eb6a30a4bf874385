import ArgumentParser
import Foundation

/// `courier`: try an API, see an error explained, run the sandbox, walk the seed systems.
@main
struct CourierCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "courier",
        abstract: "Courier's command-line tool: requests, the sandbox server, and the seed systems.",
        discussion: """
            Start with `courier demo` (no setup, no network): it runs the sandbox in-process and
            walks the seminar's User API flow against it.
            """,
        subcommands: CLISubcommands.all
    )
}
