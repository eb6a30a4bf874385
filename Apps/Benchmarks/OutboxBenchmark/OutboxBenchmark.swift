import Courier
import CourierAsyncHTTPClient
import CourierOutbox
import CourierSandbox
import Foundation
import HTTPTypes
import NIOPosix

// Writes through an outbox against the in-process sandbox (on its own event loop), beside plain
// POSTs in the same run: `swift run -c release OutboxBenchmark [WRITES] [ROUNDS]` (default 10,000
// writes in 10 rounds of 1,000 per contender, the contenders alternating round by round).
//
// - plain POST: `client.response` of a keyed POST to `/idempotent/…` (what a write costs without
//   an outbox);
// - outbox.send: each write journaled (temporary file, fsync, rename, directory fsync), its
//   attempt counted on disk, sent, and its file removed — in the directory given by
//   OUTBOX_BENCH_DIR or the system's temporary directory;
// - outbox.send, tmpfs: the same in /dev/shm, where fsync costs nothing: the difference to the
//   line above is what the syncs cost;
// - enqueue + flush: all of a round's writes journaled first, then one flush sends them in order.
//
// Each contender's writes per second: min / median / max over the rounds, and the median of the
// per-round ratios to plain POST. The sandbox counts what it created: every write exactly once.

@main
struct OutboxBenchmark {
    static func main() async throws {
        try await run()
    }

    nonisolated static func run() async throws {
        let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
        let writes = arguments.first ?? 10_000
        let rounds = max(arguments.dropFirst().first ?? 10, 1)
        let perRound = max(writes / rounds, 1)
        var options = SandboxServer.Options()
        options.eventLoopGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let sandbox = try await SandboxServer.start(options: options)
        var base = sandbox.baseURL.absoluteString
        if base.hasSuffix("/") { base.removeLast() }
        let client = NetworkClient(configuration: .init(transport: HTTPClientTransport()))
        let diskRoot = URL(fileURLWithPath: ProcessInfo.processInfo.environment["OUTBOX_BENCH_DIR"] ?? NSTemporaryDirectory())
        let tmpfsRoot = URL(fileURLWithPath: "/dev/shm")
        let hasTmpfs = FileManager.default.isWritableFile(atPath: tmpfsRoot.path)
        print("outbox benchmark: \(rounds) rounds of \(perRound) small writes per contender, alternating; disk dir \(diskRoot.path)")
        print("load before: \(loadAverage())")

        let names = ["plain POST", "outbox.send", "outbox.send, tmpfs", "enqueue + flush"].filter { hasTmpfs || $0 != "outbox.send, tmpfs" }
        var rates: [String: [Double]] = [:]
        var created: [String: Int] = [:]
        for round in 1...rounds {
            for name in names {
                let store = "bench-\(name.filter(\.isLetter))-\(round)-\(UUID().uuidString.prefix(6))"
                let url = "\(base)/idempotent/\(store)"
                let body = Data(#"{"item":"tea","n":1}"#.utf8)
                let start = ContinuousClock.now
                switch name {
                case "plain POST":
                    for _ in 0..<perRound {
                        let endpoint = Post(url: url, body: body, key: NetworkClient.IdempotencyKeys().mint())
                        _ = try await client.response(endpoint, validatingStatus: false)
                    }
                case "enqueue + flush":
                    let directory = diskRoot.appendingPathComponent("courier-outbox-bench-\(UUID().uuidString)")
                    defer { try? FileManager.default.removeItem(at: directory) }
                    let outbox = try Outbox(directory: directory, client: client, limits: OutboxLimits(maxEntries: perRound + 1))
                    for _ in 0..<perRound { try await outbox.enqueue(OutboxWrite(url: url, json: body)) }
                    let report = await outbox.flush()
                    precondition(report.delivered.count == perRound, "not every write delivered: \(report)")
                default:
                    let root = name.hasSuffix("tmpfs") ? tmpfsRoot : diskRoot
                    let directory = root.appendingPathComponent("courier-outbox-bench-\(UUID().uuidString)")
                    defer { try? FileManager.default.removeItem(at: directory) }
                    let outbox = try Outbox(directory: directory, client: client)
                    for _ in 0..<perRound {
                        guard case .delivered = try await outbox.send(OutboxWrite(url: url, json: body)) else { fatalError("a write not delivered") }
                    }
                }
                let seconds = (ContinuousClock.now - start) / .seconds(1)
                rates[name, default: []].append(Double(perRound) / seconds)
                let stats = try await client.request(Stats.Endpoint(url: "\(base)/idempotent/\(store)/stats"), as: Stats.self)
                created[name, default: 0] += stats.created
                precondition(
                    stats.created == perRound && stats.requests == perRound, "\(name): \(stats.created) created of \(stats.requests) requests")
            }
        }
        print("")
        print("contender              writes/s min    median       max   ratio to plain POST (median of rounds)   created")
        let plain = rates["plain POST"] ?? []
        for name in names {
            let values = rates[name] ?? []
            let ratios = zip(values, plain).map { $0 / $1 }
            print(
                pad(name, 22) + pad(format(values.min() ?? 0), 13, right: true) + pad(format(median(values)), 10, right: true)
                    + pad(format(values.max() ?? 0), 10, right: true) + pad(String(format: "%.3f×", median(ratios)), 18, right: true)
                    + pad("\(created[name] ?? 0)", 33, right: true))
        }
        if hasTmpfs, let disk = rates["outbox.send"], let memory = rates["outbox.send, tmpfs"] {
            let syncCost = zip(disk, memory).map { (1 / $0 - 1 / $1) * 1_000_000 }
            print(
                "the syncs' cost per write (outbox.send on disk − on tmpfs): median \(format(median(syncCost))) µs (min \(format(syncCost.min() ?? 0)), max \(format(syncCost.max() ?? 0)))"
            )
        }
        print("load after: \(loadAverage())")
        await sandbox.stop()
    }

    struct Stats: Decodable, Sendable {
        let created: Int
        let requests: Int

        struct Endpoint: Courier.Endpoint {
            let baseURL: URL
            let requestTarget: String?
            var path: String { requestTarget ?? "/" }
            var method: HTTPMethod { .get }
            var task: HTTPTask { .requestPlain }
            init(url: String) {
                let parts = URLEndpoint.parts(of: url)!
                (baseURL, requestTarget) = (parts.baseURL, parts.requestTarget)
            }
        }
    }

    /// A keyed JSON POST of a URL given whole.
    struct Post: Endpoint {
        let baseURL: URL
        let requestTarget: String?
        let task: HTTPTask
        let headers: [String: String]?
        var path: String { requestTarget ?? "/" }
        var method: HTTPMethod { .post }
        init(url: String, body: Data, key: String) {
            let parts = URLEndpoint.parts(of: url)!
            (baseURL, requestTarget) = (parts.baseURL, parts.requestTarget)
            task = .requestData(body, contentType: "application/json")
            headers = ["Idempotency-Key": key]
        }
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    static func format(_ value: Double) -> String { String(format: "%.0f", value) }

    static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return right ? padding + text : text + padding
    }

    static func loadAverage() -> String {
        (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
    }
}
