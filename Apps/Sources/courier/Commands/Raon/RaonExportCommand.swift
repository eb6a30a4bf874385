import ArgumentParser
import Foundation
import SeoulCultureAPI

/// `courier raon export-ics FILE [--all-favourites | ID…]`: programs as an .ics calendar file.
struct RaonExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export-ics",
        abstract: "Write programs to an RFC 5545 .ics file (all-day events; --alarm adds a reminder a calendar app rings).",
        discussion: "Either program ids from `list` (loaded from the API), or --all-favourites (the saved copies, offline)."
    )

    @OptionGroup var options: RaonOptions
    @Argument(help: "The .ics file to write.") var file: String
    @Argument(help: "Program ids (from `list`).") var ids: [String] = []
    @Flag(name: .customLong("all-favourites"), help: "Export every favourite (from the saved copies; no key or network needed).") var allFavourites =
        false
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Remind this long before each event starts: a VALARM calendar apps ring (1d, 2h, 30m; all-day events start at midnight).",
            valueName: "before")) var alarm: String?

    func validate() throws {
        if allFavourites, !ids.isEmpty { throw ValidationError("give either program ids or --all-favourites, not both") }
        if !allFavourites, ids.isEmpty { throw ValidationError("name at least one program id (from `courier raon list`), or --all-favourites") }
        if let alarm, ICalendarExport.Alarm(alarm) == nil {
            throw ValidationError("--alarm must be a number and d, h or m (1d, 2h, 30m), at most a year ahead")
        }
    }

    func run() async throws {
        let chosen = allFavourites ? try await favourites() : try await programs(ids)
        let reminder = alarm.flatMap { ICalendarExport.Alarm($0) }
        do {
            try Data(ICalendarExport.document(for: chosen, alarm: reminder).utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
        } catch {
            Terminal.error("✗ Could not write \(file): \(error.localizedDescription)")
            throw ExitCode(ExitCodes.failure)
        }
        let reminded = reminder.map { ", each with a reminder \($0) before" } ?? ""
        Terminal.output("wrote \(chosen.count) event\(chosen.count == 1 ? "" : "s") to \(file)\(reminded)")
    }

    /// Every favourite's saved copy.
    private func favourites() async throws -> [CulturalProgram] {
        let store = try await RaonFavCommand.store()
        let saved = try await store.all()
        try await store.close()
        guard !saved.isEmpty else {
            Terminal.error("✗ No favourites to export. Add some with: courier raon fav add ID")
            throw ExitCode(ExitCodes.failure)
        }
        return saved
    }

    /// The current or upcoming programs with these ids, loaded from the API.
    private func programs(_ ids: [String]) async throws -> [CulturalProgram] {
        let programs = try await options.withClient { try await options.load($0) }
        let wanted = ids.map { $0.lowercased() }
        let chosen = programs.filter { wanted.contains($0.id) }
        let missing = wanted.filter { id in !chosen.contains { $0.id == id } }
        guard missing.isEmpty else {
            Terminal.error("✗ No current or upcoming program has id \(missing.joined(separator: ", ")). Find ids with: courier raon list")
            throw ExitCode(ExitCodes.failure)
        }
        return chosen
    }
}
