import Courier
import CourierCache
import CourierSandbox
import Foundation
import HTTPTypes
import NIOPosix

// CacheMiddleware against the in-process sandbox (on its own event loop), each beside its
// baseline in one run, printing ratios. Run with `swift run -c release CacheBenchmark`.
//
// - fresh hit from memory and from disk vs a loopback request of a ~2 KB JSON document (goal: memory ≥ 20×,
//   disk ≥ 5× faster at p50), interleaved rounds;
// - a 64 MiB body through a disk cache (streamed to disk, served from the file): peak memory growth;
// - 304 revalidation of a 1 MB body vs fetching it whole (goal ≥ 5× faster at p50), from memory and disk, on loopback
//   (beside the 304 round trip alone: the floor) and over a paced 100 Mbit/s link;
// - a disk store of 10,000 entries of 2 KB: inserts and lookups per second.

@main
struct CacheBenchmark {
    static func main() async throws {
        try await run()
    }

    nonisolated static func run() async throws {
        var options = SandboxServer.Options()
        let serverLoops = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        options.eventLoopGroup = serverLoops
        let sandbox = try await SandboxServer.start(options: options)
        // CACHE_BENCH_DIR: where the disk stores go (default: the temporary directory).
        let parent = ProcessInfo.processInfo.environment["CACHE_BENCH_DIR"].map { URL(fileURLWithPath: $0) } ?? FileManager.default.temporaryDirectory
        let directory = parent.appendingPathComponent("courier-cache-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }

        let plain = NetworkClient()
        let memory = NetworkClient(configuration: .init(middlewares: [CacheMiddleware(storage: MemoryCacheStorage(maxBytes: 64 << 20))]))
        let disk = NetworkClient(
            configuration: .init(middlewares: [CacheMiddleware(storage: try DiskCacheStorage(directory: directory.appendingPathComponent("hits")))]))
        let small = Route(sandbox.baseURL, "/cache/bench-small", ["cc": "max-age=3600", "etag": "s1", "json": 2048])
        let sample = try await plain.response(small)
        // CACHE_BENCH_PROFILE=memory|disk|revalidate|revalidate-disk: only that contender, many times (for `perf record`).
        if let profiled = ProcessInfo.processInfo.environment["CACHE_BENCH_PROFILE"] {
            let big = Route(sandbox.baseURL, "/cache/bench-big", ["cc": "no-cache", "etag": "v1", "bytes": 1 << 20])
            let client = profiled.hasSuffix("disk") ? disk : memory
            let route = profiled.hasPrefix("revalidate") ? big : small
            _ = try await client.response(route)
            let times = try await timings(profiled.hasPrefix("revalidate") ? 2000 : 50_000) { _ = try await client.response(route) }
            print("\(profiled): p50 \(String(format: "%.1f", median(times) * 1e6)) µs")
            await sandbox.stop()
            try await serverLoops.shutdownGracefully()
            return
        }
        // First: it reports growth of the process's peak memory, which only grows.
        if ProcessInfo.processInfo.environment["CACHE_BENCH_LARGE"] != "0" {
            try await LargeBodyBenchmark.run(baseURL: sandbox.baseURL, directory: directory)
        }
        print("fresh hit vs loopback request, \(sample.body.count)-byte JSON body, p50 of 5 interleaved rounds")
        var loopback: [Double] = []
        var memoryHits: [Double] = []
        var diskHits: [Double] = []
        _ = try await memory.response(small)
        _ = try await disk.response(small)
        for _ in 0..<5 {
            loopback += try await timings(300) { _ = try await plain.response(small) }
            memoryHits += try await timings(3000) { _ = try await memory.response(small) }
            diskHits += try await timings(1000) { _ = try await disk.response(small) }
        }
        let network = median(loopback)
        row("loopback request", network, baseline: network)
        row("memory hit", median(memoryHits), baseline: network, goal: 20)
        row("disk hit", median(diskHits), baseline: network, goal: 5)

        print("\n304 revalidation vs full fetch, 1 MB body (no-cache + ETag), p50 of 3 interleaved rounds")
        let big = Route(sandbox.baseURL, "/cache/bench-big", ["cc": "no-cache", "etag": "v1", "bytes": 1 << 20])
        var full: [Double] = []
        var revalidated: [Double] = []
        var revalidatedOnDisk: [Double] = []
        _ = try await memory.response(big)
        _ = try await disk.response(big)
        for _ in 0..<3 {
            full += try await timings(30) { _ = try await plain.response(big) }
            revalidated += try await timings(30) { _ = try await memory.response(big) }
            revalidatedOnDisk += try await timings(30) { _ = try await disk.response(big) }
        }
        row("full fetch", median(full), baseline: median(full))
        row("304 revalidation", median(revalidated), baseline: median(full), goal: 5)
        row("304 reval. (disk)", median(revalidatedOnDisk), baseline: median(full), goal: 5)
        // The floor of any revalidation: the conditional round trip alone (a 304, no body, no cache).
        let conditional = Route(
            sandbox.baseURL, "/cache/bench-big", ["cc": "no-cache", "etag": "v1", "bytes": 1 << 20], headers: ["If-None-Match": "\"v1\""])
        let floor = median(try await timings(90) { _ = try await plain.response(conditional, validatingStatus: false) })
        row("304 round trip only", floor, baseline: median(full))

        // Issue 27: a 304 from the disk store within 1.1× of one from memory. Calls alternate
        // memory / disk (noise hits both alike); each round's p50s give a ratio; median of 5 rounds.
        print("\n304 revalidation from disk vs from memory, 1 MB body, median of 5 rounds of 60 alternating calls")
        var ratios: [Double] = []
        var memoryMedians: [Double] = []
        var diskMedians: [Double] = []
        for _ in 0..<5 {
            var fromMemory: [Double] = []
            var fromDisk: [Double] = []
            for _ in 0..<60 {
                fromMemory += try await timings(1) { _ = try await memory.response(big) }
                fromDisk += try await timings(1) { _ = try await disk.response(big) }
            }
            memoryMedians.append(median(fromMemory))
            diskMedians.append(median(fromDisk))
            ratios.append(median(fromDisk) / median(fromMemory))
        }
        let ratio = median(ratios)
        print("  from memory          p50 \(String(format: "%9.1f", median(memoryMedians) * 1e6)) µs")
        print("  from disk            p50 \(String(format: "%9.1f", median(diskMedians) * 1e6)) µs")
        print("  disk / memory        \(String(format: "%.3f", ratio))×  goal ≤ 1.1×: \(ratio <= 1.1 ? "met" : "NOT met")")

        print("\nthe same over a 100 Mbit/s link (the sandbox paces the body), p50 of 3 interleaved rounds")
        let paced = Route(sandbox.baseURL, "/cache/bench-paced", ["cc": "no-cache", "etag": "v1", "bytes": 1 << 20, "mbps": 100])
        var pacedFull: [Double] = []
        var pacedRevalidated: [Double] = []
        _ = try await memory.response(paced)
        for _ in 0..<3 {
            pacedFull += try await timings(5) { _ = try await plain.response(paced) }
            pacedRevalidated += try await timings(5) { _ = try await memory.response(paced) }
        }
        row("full fetch", median(pacedFull), baseline: median(pacedFull))
        row("304 revalidation", median(pacedRevalidated), baseline: median(pacedFull), goal: 5)

        print("\ndisk store, 10,000 entries of 2 KB")
        let store = try DiskCacheStorage(directory: directory.appendingPathComponent("store"), maxBytes: 256 << 20)
        let entries = (0..<10_000).map { index in
            var head = HTTPResponse(status: .ok)
            head.headerFields[.cacheControl] = "max-age=3600"
            return CachedResponse(
                url: "https://example.com/item/\(index)", head: head, body: Data(repeating: UInt8(index % 251), count: 2048),
                requestTime: Date(), responseTime: Date(), varyValues: [:])
        }
        var clock = ContinuousClock.now
        for entry in entries { store.store([entry], for: entry.url) }
        let insert = ContinuousClock.now - clock
        clock = ContinuousClock.now
        var found = 0
        for entry in entries where !store.variants(for: entry.url).isEmpty { found += 1 }
        let lookup = ContinuousClock.now - clock
        print("  inserts  \(Int(10_000 / seconds(insert))) per second")
        print("  lookups  \(Int(10_000 / seconds(lookup))) per second (\(found) of 10,000 found)")

        await sandbox.stop()
        try await serverLoops.shutdownGracefully()
    }

    /// Per-call times of `count` sequential calls, in seconds.
    static func timings(_ count: Int, _ body: () async throws -> Void) async throws -> [Double] {
        var result: [Double] = []
        result.reserveCapacity(count)
        for _ in 0..<count {
            let start = ContinuousClock.now
            try await body()
            result.append(seconds(ContinuousClock.now - start))
        }
        return result
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }

    static func row(_ name: String, _ value: Double, baseline: Double, goal: Double? = nil) {
        let speedup = baseline / max(value, 1e-9)
        let verdict = goal.map { speedup >= $0 ? "  goal ≥ \(Int($0))×: met" : "  goal ≥ \(Int($0))×: NOT met" } ?? ""
        print(
            "  \(name.padding(toLength: 20, withPad: " ", startingAt: 0)) p50 \(String(format: "%9.1f", value * 1e6)) µs   \(String(format: "%7.1f", speedup))× faster\(verdict)"
        )
    }
}

/// A GET of the sandbox with a query.
struct Route: Endpoint {
    let baseURL: URL
    let path: String
    let query: RequestParameters
    let headers: [String: String]?

    init(_ baseURL: URL, _ path: String, _ query: RequestParameters, headers: [String: String]? = nil) {
        self.baseURL = baseURL
        self.path = path
        self.query = query
        self.headers = headers
    }

    var method: HTTPMethod { .get }
    var task: HTTPTask { .requestParameters(query, encoding: .url) }
}
