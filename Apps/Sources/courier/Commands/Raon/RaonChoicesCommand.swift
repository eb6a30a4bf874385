import ArgumentParser
import Foundation
import SeoulCultureAPI

/// `courier raon categories`: every category among the programs `list` shows, with counts.
struct RaonCategoriesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "categories",
        abstract: "Every category (CODENAME) among the programs `list` shows, with counts: the --category choices.",
        discussion:
            "Counted among the programs the other filters leave (--district, --free, --date, --search; the default district too), --category aside."
    )

    @OptionGroup var options: RaonOptions
    @OptionGroup var filters: RaonFilterOptions

    func run() async throws {
        let (query, defaultDistrict) = filters.query()
        let choices = try await options.withClient { client in query.categoryChoices(in: try await options.load(client)) }
        RaonFilterOptions.noteDefault(defaultDistrict)
        RaonChoices.print(choices, noun: ("category", "categories"), json: options.json)
    }
}

/// `courier raon districts`: every district among the programs `list` shows, with counts.
struct RaonDistrictsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "districts",
        abstract: "Every district (GUNAME) among the programs `list` shows, with counts: the --district choices.",
        discussion:
            "Counted among the programs the other filters leave (--category, --free, --date, --search), --district and the default district aside."
    )

    @OptionGroup var options: RaonOptions
    @OptionGroup var filters: RaonFilterOptions

    func run() async throws {
        let query = filters.query().query
        let choices = try await options.withClient { client in query.districtChoices(in: try await options.load(client)) }
        RaonChoices.print(choices, noun: ("district", "districts"), json: options.json)
    }
}

/// How `categories` and `districts` print their choices.
enum RaonChoices {
    /// `choices` as JSON (`[{"name": …, "count": …}]`), or one to a line with its count aligned,
    /// then a total; the data's source after either (on stderr after JSON).
    static func print(_ choices: [FilterChoice], noun: (one: String, many: String), json: Bool) {
        if json {
            Terminal.outputJSON(RaonFormat.json(choices))
            Terminal.error(RaonFormat.source)
            return
        }
        if choices.isEmpty {
            Terminal.output("No programs match, so no \(noun.many).")
        } else {
            let names = choices.map { TerminalText.shown($0.name, on: .stdout) }
            let nameWidth = names.map(TerminalText.width).max() ?? 0
            let countWidth = choices.map { String($0.count).count }.max() ?? 0
            let lines = zip(names, choices).map { name, choice in
                TerminalText.rightPadded(name, to: nameWidth) + "  " + TerminalText.leftPadded(String(choice.count), to: countWidth)
            }
            Terminal.output(composed: lines.joined(separator: "\n"))
            let programs = choices.reduce(0) { $0 + $1.count }
            Terminal.output("\(choices.count) \(choices.count == 1 ? noun.one : noun.many), \(programs) program\(programs == 1 ? "" : "s")")
        }
        Terminal.output(RaonFormat.source)
    }
}
