import ArgumentParser
import Foundation
import SeoulCultureAPI

/// `courier raon settings [district NAME | district --clear]`: Raon's settings, offline.
struct RaonSettingsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings",
        abstract: "Show Raon's settings, or set the default district `list` shows (no key or network needed).",
        discussion: """
            Stored in $XDG_CONFIG_HOME/courier/raon/settings.json (default ~/.config/…), replaced whole on each change. \
            Examples: courier raon settings district 종로구; courier raon settings district --clear; courier raon settings --json
            """,
        subcommands: [Show.self, District.self],
        defaultSubcommand: Show.self
    )

    /// `courier raon settings`: what is set.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Print the settings (the default).")
        @OptionGroup var options: RaonOptions  // taken as by every raon command; settings are read offline

        func run() async throws {
            _ = try options.day()
            let file = RaonSettings.file()
            let settings: RaonSettings
            do {
                settings = try RaonSettings.load(from: file)
            } catch {
                Terminal.error("✗ \(error)")
                throw ExitCode(ExitCodes.failure)
            }
            if options.json { return Terminal.outputJSON(RaonFormat.json(Output(settings: settings, file: file.path))) }
            Terminal.output("district  \(settings.district ?? "(none: list shows every district)")")
            Terminal.output("file      \(file.path)")
        }

        /// `--json`: every setting (null when unset) and the file.
        struct Output: Encodable {
            var settings: RaonSettings
            var file: String

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Key.self)
                try container.encode(settings.district, forKey: .district)  // null, not absent, when unset
                try container.encode(file, forKey: .file)
            }

            enum Key: String, CodingKey { case district, file }
        }
    }

    /// `courier raon settings district NAME | --clear`.
    struct District: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "district", abstract: "Set the district `list` shows by default (--clear: every district again).")
        @OptionGroup var options: RaonOptions  // taken as by every raon command; nothing is loaded
        @Argument(help: "One of Seoul's 25 districts, e.g. 종로구 (`courier raon districts` lists those with programs).") var name: String?
        @Flag(name: .long, help: "Remove the default district: `list` shows every district.") var clear = false

        func validate() throws {
            switch (name, clear) {
            case (nil, false): throw ValidationError("name a district (e.g. 종로구), or --clear")
            case (.some, true): throw ValidationError("give either a district or --clear, not both")
            case (.some(let name), false) where !ProgramQuery.seoulDistricts.contains(name):
                throw ValidationError(
                    "\(TerminalText.escaped(name)) is not one of Seoul's districts: \(ProgramQuery.seoulDistricts.joined(separator: " "))")
            default: break
            }
        }

        func run() async throws {
            _ = try options.day()
            let file = RaonSettings.file()
            var settings = RaonSettings.loadOrWarn(from: file)  // an unreadable file is replaced
            settings.district = clear ? nil : name
            do {
                try settings.save(to: file)
            } catch {
                Terminal.error("✗ \(error)")
                throw ExitCode(ExitCodes.failure)
            }
            Terminal.output(clear ? "default district cleared: list shows every district" : "default district: \(name ?? "")")
        }
    }
}
