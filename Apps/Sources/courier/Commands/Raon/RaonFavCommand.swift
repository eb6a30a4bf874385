import ArgumentParser
import Foundation
import SeoulCultureAPI

/// `courier raon fav add ID | remove ID | list`: favourites kept in SQLite in the data directory.
struct RaonFavCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fav",
        abstract: "Keep favourite programs (a copy of each, so `fav list` works offline).",
        discussion: "Stored in $XDG_DATA_HOME/courier/raon/favourites.sqlite (default ~/.local/share/…).",
        subcommands: [Add.self, Remove.self, List.self]
    )

    static func store() async throws -> FavouritesStore {
        try await FavouritesStore.open(file: FavouritesStore.defaultFile())
    }

    /// The ids of every favourite, to mark programs where they are shown: none — and no store
    /// made — when there is no store yet; a store that cannot be read is a warning, not a failure.
    static func favouriteIDs() async -> Set<String> {
        await reading { try await $0.ids() } ?? []
    }

    /// Whether the program `id` is a favourite (as ``favouriteIDs()`` reads the store).
    static func isFavourite(_ id: String) async -> Bool {
        await reading { try await $0.contains(id) } ?? false
    }

    /// `body` on the store when it exists, closed afterwards; nil (and a warning) when it fails.
    private static func reading<T: Sendable>(_ body: (FavouritesStore) async throws -> T) async -> T? {
        let file = FavouritesStore.defaultFile()
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        do {
            let store = try await FavouritesStore.open(file: file)
            do {
                let value = try await body(store)
                try await store.close()
                return value
            } catch {
                try? await store.close()
                throw error
            }
        } catch {
            Terminal.error("warning: favourites not marked: \(file.path): \(error)")
            return nil
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a program (by id from `list`).")
        @OptionGroup var options: RaonOptions
        @Argument(help: "The program's id.") var id: String

        func run() async throws {
            let programs = try await options.withClient { try await options.load($0) }
            guard let program = programs.first(where: { $0.id == id.lowercased() }) else {
                Terminal.error("✗ No current or upcoming program has id \(id). Find ids with: courier raon list")
                throw ExitCode(ExitCodes.failure)
            }
            let store = try await RaonFavCommand.store()
            let added = try await store.add(program)
            try await store.close()
            Terminal.output(added ? "★ added \(program.title) [\(program.id)]" : "★ already a favourite: \(program.title) (saved copy refreshed)")
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a favourite.")
        @OptionGroup var options: RaonOptions  // taken as by every raon command; removing needs no network
        @Argument(help: "The program's id.") var id: String

        func run() async throws {
            _ = try options.day()
            let store = try await RaonFavCommand.store()
            let removed = try await store.remove(id: id.lowercased())
            try await store.close()
            Terminal.output(removed ? "removed \(id)" : "\(id) was not a favourite")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List favourites (offline).")
        @OptionGroup var options: RaonOptions  // taken as by every raon command; the list is read offline

        func run() async throws {
            _ = try options.day()
            let store = try await RaonFavCommand.store()
            let (favourites, unreadable) = try await store.contents()
            try await store.close()
            if !unreadable.isEmpty {
                Terminal.error(
                    "warning: \(unreadable.count) saved favourite(s) cannot be read and are not shown: \(unreadable.joined(separator: ", "))")
            }
            if options.json { return Terminal.outputJSON(RaonFormat.json(favourites, favourites: Set(favourites.map(\.id)))) }
            Terminal.output(
                favourites.isEmpty ? "No favourites yet: courier raon fav add ID" : favourites.map(RaonFormat.line).joined(separator: "\n"))
        }
    }
}

/// `courier raon remind [--days N]`: favourites starting today or within N days.
struct RaonRemindCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remind", abstract: "Favourites that start today or within --days days (offline).")
    @Option(name: .long, help: "Look this many days ahead (default 0: today only).") var days = 0
    @OptionGroup var options: RaonOptions  // --today and --json; the favourites are read offline

    func run() async throws {
        let day = try options.day()
        let store = try await RaonFavCommand.store()
        let soon = try await store.starting(from: day, withinDays: days)
        try await store.close()
        if options.json { return Terminal.outputJSON(RaonFormat.json(soon, favourites: Set(soon.map(\.id)))) }
        if soon.isEmpty { return Terminal.output("No favourite starts between \(day) and \(day.adding(days: max(0, days))).") }
        for program in soon {
            let wait = day.days(to: program.startDate)
            Terminal.output("⏰ \(wait == 0 ? "today" : "in \(wait) day\(wait == 1 ? "" : "s")"): \(RaonFormat.line(program))")
        }
    }
}
