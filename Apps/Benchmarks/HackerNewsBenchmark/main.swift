// The Hacker News client against the sandbox's stand-in (release build, one run):
//   swift run -c release HackerNewsBenchmark
//
// 1. The 1,200-comment thread (six levels) with 20 ms per item: Courier's `comments(of:)`
//    (breadth-first, bounded) at 16 and 32 at once, next to fetching item by item sequentially
//    (the naive reader), and the ideal depth × latency + ⌈items ÷ concurrency⌉ × latency.
//    Goal: ≤ 1.3× the ideal.
// 2. 500 stories through `stories(list: .top)`, 20 ms per item, 16 at once: time until the
//    first story is on screen and until the last.
import Courier
import CourierSandbox
import Foundation
import HackerNewsAPI

struct Control: Endpoint {
    var baseURL: URL
    var path: String
    var method: HTTPMethod = .post
    var query: RequestParameters = [:]
    var task: HTTPTask { .requestParameters(query, encoding: .url) }
}

let latencyMs = 20
let threadID = 42_000_000
let clock = ContinuousClock()
let sandbox = try await SandboxServer.start()
let root = sandbox.baseURL.appendingPathComponent("hn/v0/")
let control = NetworkClient()
func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

func stats() async throws -> HackerNewsStats {
    try await control.request(Control(baseURL: sandbox.baseURL, path: "/hn/stats", method: .get), as: HackerNewsStats.self)
}

func reset() async throws {
    _ = try await control.response(Control(baseURL: sandbox.baseURL, path: "/hn/reset"), validatingStatus: false)
}

/// The naive reader: every comment fetched one after another, depth first.
func sequentialTree(_ client: HackerNewsClient, ids: [Int]) async throws -> Int {
    var count = 0
    for id in ids {
        guard let item = try await client.item(id: id) else { continue }
        count += 1
        count += try await sequentialTree(client, ids: item.kids ?? [])
    }
    return count
}

func row(_ name: String, _ ms: Double, ideal: Double, extra: String = "") {
    print(
        "\(name.padding(toLength: 44, withPad: " ", startingAt: 0)) \(String(format: "%9.1f ms", ms))  \(String(format: "%5.2f×", ms / ideal)) ideal  \(extra)"
    )
}

// The thread's shape, measured once without latency.
let shapeClient = HackerNewsClient(baseURL: root, maxConcurrent: 32)
_ = try await control.response(Control(baseURL: sandbox.baseURL, path: "/hn/control", query: ["latencyMs": 0]), validatingStatus: false)
let thread = try await shapeClient.comments(of: threadID)
let threadItem = try await shapeClient.item(id: threadID)
let depth = thread.map(\.depth).max() ?? 0
try await reset()
_ = try await shapeClient.comments(of: threadID)
let items = try await stats().itemRequests - 1  // every comment item, the root excluded
print(
    "thread \(threadID): \(items) comment items (\(thread.reduce(0) { $0 + $1.count }) shown), depth \(depth), \(threadItem?.kids?.count ?? 0) top-level; \(latencyMs) ms per item\n"
)

for keepAlive in [true, false] {
    _ = try await control.response(
        Control(baseURL: sandbox.baseURL, path: "/hn/control", query: ["latencyMs": latencyMs, "keepAlive": keepAlive ? 1 : 0]),
        validatingStatus: false)
    print(keepAlive ? "stand-in keeps connections open (as the real API does):" : "\nstand-in watches for disconnects (a new connection per item):")
    for concurrency in [16, 32] {
        let ideal = Double(depth * latencyMs) + (Double(items) / Double(concurrency)).rounded(.up) * Double(latencyMs)
        print("— concurrency \(concurrency): ideal = \(depth) × \(latencyMs) ms + ⌈\(items) ÷ \(concurrency)⌉ × \(latencyMs) ms = \(Int(ideal)) ms")
        let client = HackerNewsClient(baseURL: root, maxConcurrent: concurrency)
        var times: [Double] = []
        var maxInFlight = 0
        for _ in 0..<3 {
            try await reset()
            let start = clock.now
            let tree = try await client.comments(of: threadID)
            times.append(milliseconds(clock.now - start))
            precondition(tree.reduce(0) { $0 + $1.count } == thread.reduce(0) { $0 + $1.count }, "the tree came back whole")
            maxInFlight = max(maxInFlight, try await stats().maxInFlight)
        }
        let median = times.sorted()[1]
        row(
            "Courier comments(of:), median of 3", median, ideal: ideal,
            extra: "(best \(Int(times.min() ?? 0)) ms, server saw ≤ \(maxInFlight) at once)")
    }
}
_ = try await control.response(
    Control(baseURL: sandbox.baseURL, path: "/hn/control", query: ["latencyMs": latencyMs, "keepAlive": 1]), validatingStatus: false)

let idealOne = Double(depth * latencyMs) + (Double(items) / 16).rounded(.up) * Double(latencyMs)
let sequentialClient = HackerNewsClient(baseURL: root, maxConcurrent: 1)
let start = clock.now
let fetched = try await sequentialTree(sequentialClient, ids: threadItem?.kids ?? [])
let sequential = milliseconds(clock.now - start)
row("item by item, sequentially (\(fetched) items)", sequential, ideal: idealOne, extra: "(vs the concurrency-16 ideal; connections kept)")

print("\n— 500 stories via stories(list: .top), \(latencyMs) ms per item, 16 at once, connections kept")
let storiesClient = HackerNewsClient(baseURL: root, maxStories: 500, maxConcurrent: 16)
try await reset()
let listStart = clock.now
var first: Duration?
var last = Duration.zero
var emissions = 0
var shown = 0
for try await stories in storiesClient.stories(list: .top) {
    if first == nil { first = clock.now - listStart }
    emissions += 1
    shown = stories.count
    last = clock.now - listStart
}
let idealStories = Double(latencyMs) + (500.0 / 16).rounded(.up) * Double(latencyMs)
print(String(format: "first story on screen after %7.1f ms (one list call + one item: ≥ %d ms)", milliseconds(first ?? .zero), latencyMs))
print(
    String(
        format: "last story on screen after  %7.1f ms (%d stories in %d growing arrays; ideal ⌈500 ÷ 16⌉ × %d ms = %.0f ms → %.2f×)",
        milliseconds(last), shown, emissions, latencyMs, idealStories, milliseconds(last) / idealStories))
await sandbox.stop()
