import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import CourierCache
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

// The http-tests/cache-tests suite's private-cache (browser) selection, run through Courier's
// CacheMiddleware against an origin of its own on 127.0.0.1. Run with
// `swift run -c release CacheConformance [PATH/cache-tests.json] [--only id,id] [--concurrency N] [--no-cache] [--cli COURIER]`;
// with `--cli PATH/TO/courier`, every request is one `courier request --cache DIR --include`
// process, all of them sharing one new cache directory (CLIFetcher);
// without a path it reads $CACHE_TESTS_JSON or /work/shared/conformance/cache-tests.json (or
// ../shared/conformance/cache-tests.json from the package directory).

@main
struct CacheConformance {
    static func main() async throws {
        try await run()
    }

    nonisolated static func run() async throws {
        var arguments = Array(CommandLine.arguments.dropFirst())
        var only: Set<String> = []
        var concurrency = 40
        // `--no-cache` runs the same requests without the cache: the floor any cache is measured from.
        let withoutCache = arguments.contains("--no-cache")
        arguments.removeAll { $0 == "--no-cache" }
        if let index = arguments.firstIndex(of: "--only"), index + 1 < arguments.count {
            only = Set(arguments[index + 1].split(separator: ",").map(String.init))
            arguments.removeSubrange(index...(index + 1))
        }
        var cli: String?
        if let index = arguments.firstIndex(of: "--cli"), index + 1 < arguments.count {
            cli = arguments[index + 1]
            arguments.removeSubrange(index...(index + 1))
        }
        if let index = arguments.firstIndex(of: "--concurrency"), index + 1 < arguments.count {
            concurrency = max(1, Int(arguments[index + 1]) ?? concurrency)
            arguments.removeSubrange(index...(index + 1))
        }
        let candidates =
            arguments.prefix(1) + [ProcessInfo.processInfo.environment["CACHE_TESTS_JSON"]].compactMap { $0 }
            + ["/work/shared/conformance/cache-tests.json", "../shared/conformance/cache-tests.json"]
        guard let path = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
            FileHandle.standardError.write(
                Data(
                    """
                    cache-tests.json not found (looked at: \(candidates.joined(separator: ", "))).
                    Pass its path as the first argument or set CACHE_TESTS_JSON; see shared/conformance/README.md.\n
                    """.utf8))
            exit(2)
        }
        var tests = try ConformanceData.load(URL(fileURLWithPath: path))
        if !only.isEmpty { tests = tests.filter { only.contains($0.id) } }
        print("cache-tests: \(tests.count) private-selection tests from \(path), \(concurrency) at a time")

        let state = OriginState()
        let (portStream, portContinuation) = AsyncStream<Int>.makeStream()
        var logger = Logger(label: "conformance.origin")
        logger.logLevel = .critical
        let origin = OriginServer(state: state, logger: logger) { port in
            portContinuation.yield(port)
            portContinuation.finish()
        }
        let group = ServiceGroup(configuration: .init(services: [origin], gracefulShutdownSignals: [], logger: logger))
        let server = Task { try await group.run() }
        var port = 0
        for await bound in portStream { port = bound }
        guard port > 0, let baseURL = URL(string: "http://127.0.0.1:\(port)") else {
            print("the origin could not start")
            exit(1)
        }

        // Redirects are the cache's to see (Fetch's `redirect: manual`): the transport must not follow them.
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        // One request per connection: a test that makes the origin drop a connection must not
        // leave a half-read one in the pool for another test.
        configuration.maximumUsesPerConnection = 1
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let cache = CacheMiddleware(storage: MemoryCacheStorage(maxBytes: 64 << 20))
        let client = NetworkClient(configuration: .init(transport: HTTPClientTransport(client: http), middlewares: withoutCache ? [] : [cache]))
        var fetcher: CLIFetcher?
        if let cli {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cache-conformance-\(UUID().uuidString)")
            fetcher = CLIFetcher(courier: cli, cacheDirectory: directory.path)
            print("through the CLI: one `\(cli) request --cache \(directory.path) --include` process per request")
        }
        let engine = ConformanceEngine(
            fetch: { [fetcher] endpoint in
                if let fetcher { return try await fetcher.fetch(endpoint) }
                return try await client.response(endpoint, validatingStatus: false)
            }, origin: state, baseURL: baseURL)

        let start = ContinuousClock.now
        let outcomes = await withTaskGroup(of: (String, Outcome).self) { group in
            var results: [String: Outcome] = [:]
            var pending = tests[...]
            for _ in 0..<concurrency {
                guard let test = pending.popFirst() else { break }
                group.addTask { (test.id, await engine.run(test)) }
            }
            for await (id, outcome) in group {
                results[id] = outcome
                if let test = pending.popFirst() { group.addTask { (test.id, await engine.run(test)) } }
            }
            return results
        }
        print("ran in \(Int((ContinuousClock.now - start) / .seconds(1))) s\n")
        ConformanceReport(tests: tests, outcomes: outcomes).print()
        if let fetcher {
            print("\nProcess wall times, process start included:")
            print(await fetcher.timings.summary())
            try? FileManager.default.removeItem(atPath: fetcher.cacheDirectory)
        }

        try await http.shutdown()
        await group.triggerGracefulShutdown()
        _ = await server.result
    }
}
