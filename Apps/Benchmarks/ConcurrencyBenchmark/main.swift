// Benchmarks for CourierConcurrency and CourierCombine (release build):
//   swift run -c release --scratch-path .build-conc-rel ConcurrencyBenchmark
//
// 1. 500 requests to the in-process sandbox, 50 ms server latency each, at most 32 at once,
//    against the ideal ⌈500/32⌉ × 50 ms = 800 ms — through concurrentMap, mergedResults, the
//    Combine merge-many helper, and a hand-written sliding-window TaskGroup for reference.
// 2. Accumulating n items into a sorted, growing list with a snapshot per item, at n = 1k,
//    10k and 100k (the seed's way at 1k and 10k), next to the seed's `scan { $0 + [$1] }.map { $0.sorted() }`.
import Courier
import CourierCombine
import CourierConcurrency
import CourierSandbox
import Foundation
import Synchronization

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

struct Get: Endpoint {
    var baseURL: URL
    var path: String
    var method: HTTPMethod = .get
    var task: HTTPTask { .requestPlain }
}

struct Delayed: Decodable, Sendable {
    var delayedMs: Int
}

let requestCount = 500
let latencyMs = 50
let limit = 32
let repeats = 3
let ideal = Duration.milliseconds(((requestCount + limit - 1) / limit) * latencyMs)

let sandbox = try await SandboxServer.start()
let client = NetworkClient()
let delayEndpoint = Get(baseURL: sandbox.baseURL, path: "/probe/delay/\(latencyMs)")
let clock = ContinuousClock()

func resetProbe() async throws {
    _ = try await client.response(Get(baseURL: sandbox.baseURL, path: "/probe/reset", method: .post))
}

func probeStats() async throws -> ProbeStats {
    try await client.request(Get(baseURL: sandbox.baseURL, path: "/probe/stats"), as: ProbeStats.self)
}

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

func format(_ duration: Duration) -> String { String(format: "%8.1f ms", milliseconds(duration)) }

/// Runs `body` `repeats` times after resetting the probe; returns the best and median times and
/// the highest concurrency the server saw.
func measure(_ body: () async throws -> Int) async throws -> (best: Duration, median: Duration, maxInFlight: Int, count: Int) {
    var times: [Duration] = []
    var maxInFlight = 0
    var count = 0
    for _ in 0..<repeats {
        try await resetProbe()
        let start = clock.now
        count = try await body()
        times.append(clock.now - start)
        maxInFlight = max(maxInFlight, try await probeStats().maxInFlight)
    }
    times.sort()
    return (times[0], times[times.count / 2], maxInFlight, count)
}

/// Subscribes and waits for completion; returns how many values arrived.
func countValues<T: Sendable>(_ publisher: AnyPublisher<T, NetworkError>) async -> Int {
    let count = Atomic<Int>(0)
    var cancellable: AnyCancellable?
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        cancellable = publisher.sink(
            receiveCompletion: { _ in continuation.resume() },
            receiveValue: { _ in count.add(1, ordering: .relaxed) }
        )
    }
    withExtendedLifetime(cancellable) {}
    return count.load(ordering: .relaxed)
}

// Warm-up: open the pool's connections and let the server settle.
_ = try await (0..<(limit * 2)).concurrentMap(limit: limit) { _ in try await client.response(Get(baseURL: sandbox.baseURL, path: "/probe/delay/1")) }

let endpoints = Array(repeating: delayEndpoint, count: requestCount)
var fanOut: [(String, (best: Duration, median: Duration, maxInFlight: Int, count: Int))] = []

fanOut.append(
    (
        "concurrentMap(limit: 32)",
        try await measure {
            try await endpoints.concurrentMap(limit: limit) { try await client.request($0, as: Delayed.self) }.count
        }
    ))
fanOut.append(
    (
        "mergedResults(limit: 32)",
        try await measure {
            var count = 0
            for await finished in endpoints.mergedResults(limit: limit, { try await client.request($0, as: Delayed.self) }) {
                if finished.value != nil { count += 1 }
            }
            return count
        }
    ))
fanOut.append(
    (
        "Combine mergedPublisher(maxConcurrent: 32)",
        try await measure {
            await countValues(client.mergedPublisher(for: endpoints, as: Delayed.self, maxConcurrent: limit))
        }
    ))
fanOut.append(
    (
        "reference: hand-written TaskGroup window",
        try await measure {
            try await withThrowingTaskGroup(of: Delayed.self) { group in
                var next = 0
                var count = 0
                while next < min(limit, requestCount) {
                    group.addTask { try await client.request(delayEndpoint, as: Delayed.self) }
                    next += 1
                }
                while try await group.next() != nil {
                    count += 1
                    if next < requestCount {
                        group.addTask { try await client.request(delayEndpoint, as: Delayed.self) }
                        next += 1
                    }
                }
                return count
            }
        }
    ))
await sandbox.stop()

print(
    "Fan-out: \(requestCount) requests, \(latencyMs) ms server latency, limit \(limit); ideal ⌈\(requestCount)/\(limit)⌉×\(latencyMs) ms = \(format(ideal)); best and median of \(repeats)"
)
print("| path                                         |        best |      median | best/ideal | server max in flight | values |")
print("|----------------------------------------------|-------------|-------------|------------|----------------------|--------|")
for (name, result) in fanOut {
    let ratio = milliseconds(result.best) / milliseconds(ideal)
    print(
        "| \(name.padding(toLength: 44, withPad: " ", startingAt: 0)) | \(format(result.best)) | \(format(result.median)) | \(String(format: "%9.3f×", ratio)) | \(String(format: "%20d", result.maxInFlight)) | \(String(format: "%6d", result.count)) |"
    )
}

// MARK: - Accumulate

/// Deterministic keys (a "time" per story), so every run does the same work.
func keys(_ n: Int) -> [Int] {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    return (0..<n).map { _ in
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Int(truncatingIfNeeded: state >> 33)
    }
}

func best(of runs: Int, _ body: () async -> Int) async -> (Duration, Int) {
    var best = Duration.seconds(1_000)
    var check = 0
    for _ in 0..<runs {
        let start = clock.now
        check = await body()
        best = min(best, clock.now - start)
    }
    return (best, check)
}

func stream(_ input: [Int]) -> AsyncStream<Int> {
    AsyncStream<Int>(bufferingPolicy: .unbounded) { continuation in
        for key in input { continuation.yield(key) }
        continuation.finish()
    }
}

/// Courier's `Accumulator`: add each item, take a snapshot, read its newest item.
func courierAccumulator(_ input: [Int]) async -> Int {
    var accumulator = Accumulator<Int>(sortedBy: >)
    var checksum = 0
    for key in input {
        accumulator.add(key)
        let snapshot = accumulator.snapshot
        checksum &+= snapshot[0] &+ snapshot.count
    }
    return checksum
}

/// Courier's `Accumulator` in arrival order (no sorting): add, snapshot, read the last item.
func courierArrivalOrder(_ input: [Int]) async -> Int {
    var accumulator = Accumulator<Int>()
    var checksum = 0
    for key in input {
        accumulator.add(key)
        let snapshot = accumulator.snapshot
        checksum &+= snapshot[snapshot.count - 1] &+ snapshot.count
    }
    return checksum
}

/// Courier: `AsyncSequence.accumulated(sortedBy:)` over a stream, reading each snapshot's newest item.
func courierAccumulated(_ input: [Int]) async -> Int {
    var checksum = 0
    for await snapshot in stream(input).accumulated(sortedBy: >) { checksum &+= snapshot[0] &+ snapshot.count }
    return checksum
}

/// The seed: `scan([]) { $0 + [$1] }.map { $0.sorted() }` over the same stream — a new sorted array per item.
func seedScanSorted(_ input: [Int]) async -> Int {
    var soFar: [Int] = []
    var checksum = 0
    for await key in stream(input) {
        soFar = soFar + [key]
        let sorted = soFar.sorted(by: >)
        checksum &+= sorted[0] &+ sorted.count
    }
    return checksum
}

/// The stream alone, for reference: what iterating costs before any accumulating.
func streamAlone(_ input: [Int]) async -> Int {
    var checksum = 0
    for await key in stream(input) { checksum &+= key }
    return checksum
}

print("")
print("Accumulate: n items into a growing list (sorted newest-first unless noted), one snapshot per item (best of 5)")
print("| path                                         |       n |        time | per item (ns) | time ÷ time(1k) |")
print("|----------------------------------------------|---------|-------------|---------------|-----------------|")
let accumulatePaths: [(String, [Int], ([Int]) async -> Int)] = [
    ("Accumulator.add + snapshot (sorted)", [1_000, 10_000, 100_000], courierAccumulator),
    ("Accumulator.add + snapshot (arrival order)", [1_000, 10_000, 100_000], courierArrivalOrder),
    ("AsyncStream.accumulated(sortedBy:)", [1_000, 10_000, 100_000], courierAccumulated),
    ("seed: scan { $0 + [$1] }.map { $0.sorted() }", [1_000, 10_000], seedScanSorted),
    ("reference: iterating the AsyncStream alone", [1_000, 10_000, 100_000], streamAlone),
]
for (name, sizes, body) in accumulatePaths {
    var base: Duration?
    for n in sizes {
        let input = keys(n)
        let (time, _) = await best(of: 5) { await body(input) }
        let reference = base ?? time
        if base == nil { base = time }
        let perItem = milliseconds(time) * 1e6 / Double(n)
        print(
            "| \(name.padding(toLength: 44, withPad: " ", startingAt: 0)) | \(String(format: "%7d", n)) | \(format(time)) | \(String(format: "%13.0f", perItem)) | \(String(format: "%14.1f×", milliseconds(time) / milliseconds(reference))) |"
        )
    }
}
print("Linear work grows 10× per 10× items, n log n about 13×, quadratic 100×.")
