import ArgumentParser
import Courier
import CourierConcurrency
import CourierSandbox
import Foundation
import SeoulCultureAPI

#if canImport(Glibc)
import Glibc
#endif

/// `courier raon …`: Raon in the terminal — Seoul's current and upcoming cultural
/// programs from the Seoul Open Data API, or from the sandbox's stand-in with `--sandbox`.
struct RaonCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "raon",
        abstract: "Raon: Seoul's current and upcoming cultural programs (Seoul Open Data culturalEventInfo).",
        discussion: """
            Every subcommand needs a key (--key-file PATH, SEOUL_API_KEY, or --key, which `ps` shows; \
            get one at data.seoul.go.kr), \
            or --sandbox to use the built-in stand-in (no key, no network). --base-url is the \
            service root (default http://openapi.seoul.go.kr:8088), under which /{KEY}/json/… follows. \
            The key is never printed. Answers are kept in an HTTP cache ($XDG_CACHE_HOME/courier/raon or \
            ~/.cache/courier/raon; --cache DIR elsewhere, --no-cache for none; none by default with --sandbox) \
            and served from it when the network fails; --offline reads only the cache.
            When the network fails and saved answers are shown instead, stderr says so and how old \
            they are ("offline: showing programs saved 3 h ago").
            Example: courier raon list --sandbox --today 2026-11-20 --category 클래식 --free
            Data: \(CulturalEventAPI.Source.publisher), dataset \(CulturalEventAPI.Source.dataset): \(CulturalEventAPI.Source.link)
            \(ExitCodes.help)
            """,
        subcommands: [
            RaonListCommand.self, RaonShowCommand.self, RaonShareCommand.self, RaonCategoriesCommand.self, RaonDistrictsCommand.self,
            RaonCalendarCommand.self, RaonFavCommand.self, RaonRemindCommand.self, RaonExportCommand.self, RaonSettingsCommand.self,
        ]
    )
}

/// Options every `courier raon` subcommand takes.
struct RaonOptions: ParsableArguments {
    @Option(name: .long, help: "The Seoul Open Data API key (visible in `ps`: prefer --key-file or $SEOUL_API_KEY).") var key: String?
    @Option(name: .customLong("key-file"), help: ArgumentHelp("A file holding the API key (one line).", valueName: "path")) var keyFile: String?
    @Option(name: .customLong("base-url"), help: "The service root (default http://openapi.seoul.go.kr:8088).") var baseURL: String?
    @Flag(name: .long, help: "Use the sandbox's stand-in of the API, started in-process.") var sandbox = false
    @Option(name: .long, help: "Today, as YYYY-MM-DD (default: today in Seoul).") var today: String?
    @Flag(name: .long, help: "Print JSON instead of text.") var json = false
    @OptionGroup var caching: CacheOptions

    /// The key the stand-in accepts when none is given.
    static let sandboxKey = "CourierSandboxKey20261120demo"

    func day() throws -> SeoulDay {
        guard let today else { return SeoulDay.today() }
        guard let day = SeoulDay(today), today.count == 10 else { throw ValidationError("--today must be a date like 2026-11-20") }
        return day
    }

    /// Runs `body` with a client (and a sandbox, with --sandbox), turning a ``SeoulAPIError``
    /// into a message on stderr and the exit code of its family.
    func withClient<T>(_ body: (SeoulCultureClient) async throws -> T) async throws -> T {
        try await withClientAndRoot { client, _ in try await body(client) }
    }

    /// As ``withClient(_:)``, with the service root the client uses (the sandbox's with --sandbox;
    /// nil for the real service's default).
    func withClientAndRoot<T>(_ body: (SeoulCultureClient, URL?) async throws -> T) async throws -> T {
        let today = try day()
        // Before a sandbox starts: a bad --key-file ends here.
        let given = try SecretSource.resolve(flag: key, flagName: "--key", file: keyFile, fileName: "--key-file", environment: ["SEOUL_API_KEY"])
        var running: RunningSandbox?
        let root: URL?
        if sandbox {
            let started = try await SandboxServer.start()
            running = started
            root = started.baseURL.appendingPathComponent("seoul")
        } else if let baseURL {
            guard let url = URL(string: baseURL), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil else {
                throw ValidationError("--base-url must be an http:// or https:// URL, e.g. http://openapi.seoul.go.kr:8088")
            }
            root = url
        } else {
            root = nil
        }
        guard let key = given ?? (sandbox ? Self.sandboxKey : nil) else {
            await running?.stop()
            throw ValidationError("a key is needed: --key-file PATH, SEOUL_API_KEY or --key KEY (or --sandbox to try the stand-in)")
        }
        if caching.offline, sandbox {
            await running?.stop()
            throw ValidationError("--offline reads the cache of earlier runs; the --sandbox stand-in gets a new address each run")
        }
        var configuration = NetworkClient.Configuration()
        let cache = try caching.middleware(named: "raon", inMemoryByDefault: sandbox)
        let notice = cache.map { OfflineNotice(cache: $0, offline: caching.offline) }
        if let notice { configuration.middlewares.append(notice) }
        // Offline, a miss is the cache's own 504: nothing a retry would change.
        let retries = caching.offline ? RetryPolicy(maxAttempts: 1) : RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(200))
        let client = SeoulCultureClient(key: key, baseURL: root, configuration: configuration, retryPolicy: retries, today: { today })
        defer { if let running { Task { await running.stop() } } }
        do {
            let result = try await flushingCache(cache) { try await body(client, root) }
            await running?.stop()
            running = nil
            if let message = notice?.message(showing: "programs") { Terminal.error(message) }
            return result
        } catch let error as SeoulAPIError {
            await running?.stop()
            running = nil
            if let message = caching.offlineMiss(error.networkError, name: "raon") {
                Terminal.error("✗ the program list is " + message)
                throw ExitCode(ExitCodes.code(for: error.networkError.family))
            }
            Terminal.error("✗ " + error.description)
            throw ExitCode(ExitCodes.code(for: error.networkError.family))
        }
    }

    /// Every current and upcoming program, with a progress bar on a terminal.
    func load(_ client: SeoulCultureClient) async throws(SeoulAPIError) -> [CulturalProgram] {
        let bar = RaonProgressBar()
        let programs = try await client.allPrograms { bar.show($0) }
        bar.finish()
        return programs
    }
}

/// A one-line progress bar on stderr while pages load, when stderr is a terminal.
final class RaonProgressBar: Sendable {
    let enabled = isatty(2) == 1

    func show(_ progress: PaginationProgress) {
        guard enabled else { return }
        let width = 24
        let filled = Int(progress.fractionCompleted * Double(width))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        Terminal.write("\r\(bar) \(progress.pagesDone)/\(progress.totalPages) pages, \(progress.itemsFetched) rows", to: STDERR_FILENO)
    }

    func finish() {
        guard enabled else { return }
        Terminal.write("\r\u{1B}[K", to: STDERR_FILENO)
    }
}
