import ArgumentParser
import Courier
import CourierSandbox
import Foundation
import HackerNewsAPI

/// `courier hn …`: read Hacker News in the terminal, from the real API, a mirror or
/// the sandbox's stand-in.
struct HackerNewsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hn",
        abstract: "Read Hacker News: story lists that grow as stories arrive, items with their comment tree, users.",
        discussion: """
            Reads https://hacker-news.firebaseio.com/v0/ by default; --base-url takes another API root \
            (including its version path, e.g. http://127.0.0.1:8080/hn/v0/ for `courier serve`), \
            --sandbox starts the sandbox in-process and reads its stand-in (bundled data, no network). \
            In a terminal the output is formatted (hosts are clickable links); piped, or with --json, it is JSON.
            A missing item or user exits with 11 (like a 404).
            What is read is kept in an HTTP cache ($XDG_CACHE_HOME/courier/hn or ~/.cache/courier/hn; --cache DIR \
            elsewhere, --no-cache for none; none by default with --sandbox) and served from it when the network fails; \
            --offline reads only the cache.
            Example: courier hn stories --list new --limit 20
            Example: courier hn item 8863 --sandbox
            Example: courier hn item 8863 --offline
            \(ExitCodes.help)
            """,
        subcommands: [HackerNewsStoriesCommand.self, HackerNewsItemCommand.self, HackerNewsUserCommand.self]
    )
}

/// Options every `courier hn` subcommand takes.
struct HackerNewsOptions: ParsableArguments {
    @Option(name: .long, help: "The API root, version path included.") var baseURL: String = HackerNewsAPI.defaultBaseURL.absoluteString
    @Flag(name: .long, help: "Start the sandbox in-process and read its Hacker News stand-in.") var sandbox = false
    @Option(name: .long, help: "With --sandbox: milliseconds the stand-in waits before each item (to watch a list grow).") var latencyMs: Int = 0
    @Option(name: .long, help: "Items fetched at once (1…64).") var concurrency: Int = 16
    @Flag(name: .long, help: "Print JSON (also the default when stdout is not a terminal).") var json = false
    @Flag(name: .long, help: "Allow plain http:// to a non-loopback host.") var allowInsecure = false
    @OptionGroup var caching: CacheOptions

    func validate() throws {
        if caching.offline, sandbox {
            throw ValidationError("--offline reads the cache of earlier runs; the --sandbox stand-in gets a new address each run")
        }
        guard (1...64).contains(concurrency) else { throw ValidationError("--concurrency must be 1…64") }
        guard (0...60_000).contains(latencyMs) else { throw ValidationError("--latency-ms must be 0…60000") }
        _ = try rootURL()
    }

    /// Whether to print JSON: asked for, or stdout is not a terminal.
    var printsJSON: Bool { json || !HackerNewsTerminal.isInteractive }

    /// `--base-url`, checked.
    func rootURL() throws -> URL {
        guard let url = URL(string: baseURL), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil else {
            throw ValidationError("--base-url must be an http:// or https:// URL, e.g. https://hacker-news.firebaseio.com/v0/")
        }
        return url
    }

    /// Runs `body` with a client for `--base-url` or the in-process sandbox, and maps a
    /// ``NetworkError`` to its message and exit code.
    func withClient(maxStories: Int = 500, _ body: (HackerNewsClient) async throws -> Void) async throws {
        var root = try rootURL()
        var running: RunningSandbox?
        if sandbox {
            let started = try await SandboxServer.start()
            running = started
            root = started.baseURL.appendingPathComponent("hn/v0/")
            if latencyMs > 0 {
                _ = try await NetworkClient().response(HackerNewsControl(baseURL: started.baseURL, latencyMs: latencyMs), validatingStatus: false)
            }
        }
        var configuration = NetworkClient.Configuration()
        if allowInsecure, let host = root.host { configuration.insecureHostsAllowed.insert(host.lowercased()) }
        let cache = try caching.middleware(named: "hn", inMemoryByDefault: sandbox)
        if let cache { configuration.middlewares.append(cache) }
        let client = HackerNewsClient(baseURL: root, maxStories: maxStories, maxConcurrent: concurrency, configuration: configuration)
        do {
            try await flushingCache(cache) { try await body(client) }
            await running?.stop()
        } catch let error as NetworkError {
            await running?.stop()
            if let message = caching.offlineMiss(error, name: "hn") {
                Terminal.error(message)
                throw ExitCode(ExitCodes.code(for: error.family))
            }
            Terminal.error(error.log(file: "courier", function: "hn"))
            if let address = error.unreachableAddress { Terminal.error("could not reach \(address.absoluteString)") }
            Terminal.error(error.userMessage(in: .preferred))
            throw ExitCode(ExitCodes.code(for: error.family))
        } catch {
            await running?.stop()
            throw error
        }
    }

    /// A missing item or user: a clear message and the exit code of a 404.
    static func missing(_ what: String) -> ExitCode {
        Terminal.error("\(what) does not exist (the API answered null)")
        return ExitCode(ExitCodes.code(for: .client))
    }
}

/// `POST /hn/control?latencyMs=` on the in-process sandbox.
struct HackerNewsControl: Endpoint {
    let baseURL: URL
    let latencyMs: Int
    var path: String { "/hn/control" }
    var method: HTTPMethod { .post }
    var task: HTTPTask { .requestParameters(["latencyMs": latencyMs], encoding: .url) }
}
