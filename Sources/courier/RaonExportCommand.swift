import ArgumentParser
import Foundation
import SeoulCultureAPI

/// `courier raon export-ics FILE ID…`: programs as an .ics calendar file.
struct RaonExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "export-ics", abstract: "Write programs to an RFC 5545 .ics file (all-day events).")

    @OptionGroup var options: RaonOptions
    @Argument(help: "The .ics file to write.") var file: String
    @Argument(help: "Program ids (from `list`).") var ids: [String] = []

    func run() async throws {
        guard !ids.isEmpty else { throw ValidationError("name at least one program id (from `courier raon list`)") }
        let programs = try await options.withClient { try await options.load($0) }
        let wanted = ids.map { $0.lowercased() }
        let chosen = programs.filter { wanted.contains($0.id) }
        let missing = wanted.filter { id in !chosen.contains { $0.id == id } }
        guard missing.isEmpty else {
            Terminal.error("✗ No current or upcoming program has id \(missing.joined(separator: ", ")). Find ids with: courier raon list")
            throw ExitCode(1)
        }
        do {
            try Data(ICalendarExport.document(for: chosen).utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
        } catch {
            Terminal.error("✗ Could not write \(file): \(error.localizedDescription)")
            throw ExitCode(1)
        }
        Terminal.output("wrote \(chosen.count) event\(chosen.count == 1 ? "" : "s") to \(file)")
    }
}
