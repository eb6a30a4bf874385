import ArgumentParser
import Courier
import CourierTransfers
import Foundation
import SeoulCultureAPI

/// `courier raon list`: current and upcoming programs, filtered.
struct RaonListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List current and upcoming programs, sorted by start date (★ marks a favourite on a terminal).",
        discussion: "--json gives each program `favourite`: true|false. The data's source is named after the list (on stderr with --json).")

    @OptionGroup var options: RaonOptions
    @OptionGroup var filters: RaonFilterOptions

    func run() async throws {
        let (query, defaultDistrict) = filters.query()
        let programs = try await options.withClient { client in query.apply(to: try await options.load(client)) }
        let favourites = await RaonFavCommand.favouriteIDs()
        RaonFilterOptions.noteDefault(defaultDistrict)
        if options.json {
            Terminal.outputJSON(RaonFormat.json(programs, favourites: favourites))
            Terminal.error(RaonFormat.source)
            return
        }
        if programs.isEmpty {
            Terminal.output("No programs match.")
        } else {
            Terminal.output(RaonFormat.lines(programs, favourites: favourites))
            Terminal.output("\(programs.count) program\(programs.count == 1 ? "" : "s")")
        }
        Terminal.output(RaonFormat.source)
    }
}

/// `courier raon show ID`: every field, with map and route links.
struct RaonShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show one program with every field, map and public-transit route links (★ before a favourite's title).")

    @OptionGroup var options: RaonOptions
    @Argument(help: "The program's id (from `list`).") var id: String
    @Option(name: .long, help: "Also save the program's poster to this file (downloaded whole, then put in place).") var poster: String?
    @Flag(name: .long, help: "Open the program's homepage in $BROWSER (else xdg-open/open); only http(s) links are opened.") var open = false

    func run() async throws {
        let posterTarget = poster.map { URL(fileURLWithPath: $0) }
        let program: CulturalProgram? = try await options.withClientAndRoot { client, root in
            let programs = try await options.load(client)
            guard let program = programs.first(where: { $0.id == id.lowercased() }) else { return nil }
            if let posterTarget { try await Self.savePoster(of: program, to: posterTarget, sandboxRoot: options.sandbox ? root : nil) }
            return program
        }
        guard let program else {
            Terminal.error("✗ No current or upcoming program has id \(id). Find ids with: courier raon list")
            throw ExitCode(ExitCodes.failure)
        }
        let favourite = await RaonFavCommand.isFavourite(program.id)
        if options.json {
            Terminal.outputJSON(RaonFormat.json(program, favourite: favourite))
            Terminal.error(RaonFormat.source)
        } else {
            Terminal.output(composed: RaonFormat.detail(program, favourite: favourite))  // OSC 8 links on a terminal; the text is escaped there
            Terminal.output(RaonFormat.source)
        }
        if open {
            try await LinkOpener.open(RaonFormat.homepage(program), missing: "Program \(program.id) has no homepage to open")
        }
    }
}

extension RaonShowCommand {
    /// Downloads `program`'s poster to `target` (with --sandbox, from the stand-in at `sandboxRoot`,
    /// which serves the link's path). A program without a poster link is a failure (exit 1).
    static func savePoster(of program: CulturalProgram, to target: URL, sandboxRoot: URL?) async throws {
        guard let link = program.imageLink,
            let endpoint = try? AdHocEndpoint(method: "GET", url: link, headers: [:], extraQuery: [], json: nil, timeout: .seconds(30))
        else {
            Terminal.error("✗ Program \(program.id) has no poster link")
            throw ExitCode(ExitCodes.failure)
        }
        var configuration = NetworkClient.Configuration(baseURL: sandboxRoot)
        configuration.middlewares = [RetryMiddleware(policy: RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(200)))]
        do {
            let file = try await NetworkClient(configuration: configuration).download(endpoint, to: target)
            Terminal.error("saved the poster to \(target.path) (\(ProgressBar.bytes(file.bytes)))")
        } catch {
            throw ExitCodes.report(error)
        }
    }
}

/// `courier raon calendar`: a month grid with the number of programs on each day.
struct RaonCalendarCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "calendar", abstract: "A month grid with the number of programs on each day.")

    @OptionGroup var options: RaonOptions
    @Option(name: .long, help: "The month, YYYY-MM (default: this month).") var month: String?

    func run() async throws {
        let today = try options.day()
        var year = today.year
        var monthNumber = today.month
        if let month {
            let parts = month.split(separator: "-")
            guard parts.count == 2, let y = Int(parts[0]), let m = Int(parts[1]), SeoulDay(year: y, month: m, day: 1) != nil else {
                throw ValidationError("--month must look like 2026-11")
            }
            year = y
            monthNumber = m
        }
        let programs = try await options.withClient { try await options.load($0) }
        let counts = CulturalProgram.countsPerDay(programs, year: year, month: monthNumber)
        if options.json {
            let object = Dictionary(uniqueKeysWithValues: counts.map { ($0.key.description, $0.value) })
            Terminal.outputJSON(RaonFormat.json(object))
        } else {
            Terminal.output(RaonFormat.calendar(counts, year: year, month: monthNumber, today: today))
        }
    }
}
