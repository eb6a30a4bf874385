import ArgumentParser
import Foundation
import SeoulCultureAPI

/// `courier raon share ID`: a program as plain text to share.
struct RaonShareCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "share",
        abstract: "A program as plain text to share: title, dates, place and district, fee or free, the homepage link.",
        discussion:
            "The text an app hands to a share sheet (CulturalProgram.shareText): no escape sequences, piped or not. --json: {\"id\", \"text\"}."
    )

    @OptionGroup var options: RaonOptions
    @Argument(help: "The program's id (from `list`).") var id: String

    func run() async throws {
        let programs = try await options.withClient { try await options.load($0) }
        guard let program = programs.first(where: { $0.id == id.lowercased() }) else {
            Terminal.error("✗ No current or upcoming program has id \(id). Find ids with: courier raon list")
            throw ExitCode(ExitCodes.failure)
        }
        if options.json {
            struct Shared: Encodable { var id, text: String }
            Terminal.outputJSON(RaonFormat.json(Shared(id: program.id, text: program.shareText)))
        } else {
            Terminal.output(program.shareText)
        }
    }
}
