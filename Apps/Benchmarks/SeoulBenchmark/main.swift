import Courier
import CourierSandbox
import Foundation
import SeoulCultureAPI

// Raon's load against the sandbox's stand-in with 200 ms per answer: all pages at once vs one
// after another vs the ideal (the probe, then one page: the least two round trips can take);
// then decoding + filtering + sorting 10,000 rows in memory. Run: swift run -c release SeoulBenchmark

let latencyMs = 200
let runs = 3

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

func time(_ body: () async throws -> Void) async rethrows -> Double {
    let start = ContinuousClock.now
    try await body()
    return seconds(ContinuousClock.now - start)
}

let sandbox = try await SandboxServer.start()
let root = sandbox.baseURL.appendingPathComponent("seoul")
let key = "CourierBenchmarkKey0123456789"
let control = TestControl(baseURL: sandbox.baseURL)
let anchor = SeoulDay(year: 2026, month: 11, day: 20) ?? SeoulDay.today()

// SEOUL_BENCH_REPEAT=N SEOUL_BENCH_READING=now|before: only the 10,000-row path, N times, for a
// profiler (`perf stat`, valgrind) — no load section, no other contender.
let environment = ProcessInfo.processInfo.environment
let profileRepeats = environment["SEOUL_BENCH_REPEAT"].flatMap { Int($0) }

let concurrentClient = SeoulCultureClient(key: key, baseURL: root, maxConcurrentPages: 8, today: { anchor })
let sequentialClient = SeoulCultureClient(key: key, baseURL: root, maxConcurrentPages: 1, today: { anchor })
if profileRepeats == nil {
    // Warm up connections and the data set without latency.
    _ = try await SeoulCultureClient(key: key, baseURL: root, today: { anchor }).allPrograms()
    try await control.set("latencyMs=\(latencyMs)")
    var concurrent: [Double] = []
    var sequential: [Double] = []
    var ideal: [Double] = []
    var count = 0
    for _ in 0..<runs {
        concurrent.append(try await time { count = try await concurrentClient.allPrograms().count })
        sequential.append(try await time { _ = try await sequentialClient.allPrograms() })
        ideal.append(
            try await time {
                _ = try await concurrentClient.rows(start: 1, end: 1)
                _ = try await concurrentClient.rows(start: 1, end: 1000)
            })
    }
    let total = try await concurrentClient.totalCount()
    let pages = (total + 999) / 1000
    let c = median(concurrent)
    let s = median(sequential)
    let i = median(ideal)
    print("Raon load: \(total) rows in \(pages) pages, \(latencyMs) ms per answer, median of \(runs) runs (\(count) current/upcoming kept)")
    print("  contender                     time      × ideal")
    print(String(format: "  ideal (probe + 1 page)     %6.0f ms    1.00", i * 1000))
    print(String(format: "  concurrent (all pages)     %6.0f ms    %.2f   goal ≤ 1.20 %@", c * 1000, c / i, c / i <= 1.2 ? "✓" : "✗"))
    print(String(format: "  sequential (1 at a time)   %6.0f ms    %.2f", s * 1000, s / i))
    print(String(format: "  sequential / concurrent: %.2f×", s / c))
}

// 10,000 rows in memory: decode the JSON, make programs, keep the current ones, sort, filter.
try await control.set("latencyMs=0&rows=10000")
// The ten 1,000-row answers exactly as the stand-in sends them; one body of all 10,000 rows too.
var fetched: [Data] = []
for start in stride(from: 1, to: 10_001, by: 1000) {
    fetched.append(try await concurrentClient.client.response(CulturalEventAPI.rows(key: key, start: start, end: start + 999)).body)
}
let pageBodies = fetched
await sandbox.stop()
let rows = try pageBodies.flatMap { try SeoulAnswerParser.parse($0).rows }
struct Wrapper: Encodable {
    struct Inner: Encodable {
        var list_total_count: Int
        var RESULT: SeoulResult
        var row: [CulturalEventRow]
    }
    var culturalEventInfo: Inner
}
let encoder = JSONEncoder()
// Keys in one order in every row, as the service and the stand-in write them (JSONEncoder's
// own order changes from row to row, which no real answer does).
encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
let body = try encoder.encode(
    Wrapper(culturalEventInfo: .init(list_total_count: rows.count, RESULT: SeoulResult(code: "INFO-000", message: "정상 처리되었습니다"), row: rows)))
/// CPU seconds this process has used: beside the wall time, as other builds share the machine.
func processCPU() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

/// How a page becomes programs.
enum Reading: Sendable {
    /// JSONDecoder into rows, then programs: the reference.
    case foundation
    /// The scanner into `CulturalEventRow`s (24 Strings a row), then programs: the path before.
    case rowScanner
    /// The scanner straight into programs (`SeoulAnswerParser.programs`), as `allPrograms` reads now.
    case programScanner
}

/// Parses one page and makes its programs, as each page task of `allPrograms` does.
@Sendable func programs(of body: Data, reading: Reading) throws -> [CulturalProgram] {
    switch reading {
    case .foundation: CulturalProgram.programs(from: try SeoulAnswerParser.parse(body, reading: .foundation).rows)
    case .rowScanner: CulturalProgram.programs(from: try SeoulAnswerParser.parse(body, reading: .scanner).rows)
    case .programScanner: try SeoulAnswerParser.programs(body).programs
    }
}

/// The 10,000-row path end to end: pages read (one after another, or in parallel tasks as
/// `allPrograms` runs them), merged, the current ones kept and sorted, then a search.
func fullPath(parallel: Bool, reading: Reading) async throws -> Int {
    var pages: [[CulturalProgram]]
    if parallel {
        pages = try await withThrowingTaskGroup(of: (Int, [CulturalProgram]).self) { group in
            for (index, body) in pageBodies.enumerated() { group.addTask { (index, try programs(of: body, reading: reading)) } }
            var pages = [[CulturalProgram]](repeating: [], count: pageBodies.count)
            for try await (index, page) in group { pages[index] = page }
            return pages
        }
    } else {
        pages = try pageBodies.map { try programs(of: $0, reading: reading) }
    }
    let kept = CulturalProgram.currentAndUpcoming(pages.flatMap { $0 }, today: anchor)
    pages = []
    return ProgramQuery(search: "콘서트", isFreeOnly: true).apply(to: kept).count
}

if let profileRepeats {
    let reading: Reading = environment["SEOUL_BENCH_READING"] == "before" ? .rowScanner : .programScanner
    let started = processCPU()
    for _ in 0..<profileRepeats { _ = try await fullPath(parallel: false, reading: reading) }
    print(
        String(
            format: "%@: %d × the 10,000-row path, one thread: %.1f ms CPU each", "\(reading)", profileRepeats,
            (processCPU() - started) * 1000 / Double(max(1, profileRepeats))))
    exit(0)
}

var loadAverage = [0.0, 0.0, 0.0]
_ = getloadavg(&loadAverage, 3)
print(
    String(
        format: "decode + filter + sort of %d rows (10 stand-in pages of 1,000, %.1f MB JSON), median of 7; load average %.1f on %d cores",
        rows.count, Double(pageBodies.reduce(0) { $0 + $1.count }) / 1e6, loadAverage[0], ProcessInfo.processInfo.activeProcessorCount))
print("  contender                                  wall      CPU")
var shown = 0
var results: [String: Double] = [:]
for (name, parallel, reading, goal) in [
    ("JSONDecoder reading, one thread", false, Reading.foundation, false),
    ("before: scanner → rows → programs, 1 thread", false, .rowScanner, false),
    ("now: scanner → programs, one thread", false, .programScanner, true),
    ("now: pages in parallel (allPrograms)", true, .programScanner, true),
] {
    var wall: [Double] = []
    var cpu: [Double] = []
    for _ in 0..<7 {
        let cpuStart = processCPU()
        wall.append(try await time { shown = try await fullPath(parallel: parallel, reading: reading) })
        cpu.append(processCPU() - cpuStart)
    }
    results[name] = median(wall)
    let mark = goal ? (median(wall) <= 0.05 ? "goal ≤ 50 ms ✓" : "goal ≤ 50 ms ✗") : ""
    print(
        String(
            format: "  %@ %6.1f ms %6.1f ms   %@", name.padding(toLength: 42, withPad: " ", startingAt: 0), median(wall) * 1000, median(cpu) * 1000,
            mark))
}
let now = results["now: scanner → programs, one thread"] ?? 1
print(
    String(
        format: "  one thread: JSONDecoder / now %.1f×, before / now %.2f×; %d shown after a search",
        (results["JSONDecoder reading, one thread"] ?? 0) / now, (results["before: scanner → rows → programs, 1 thread"] ?? 0) / now, shown))

// Where the time goes, stage by stage, on one body of all 10,000 rows (medians of 7).
var decodeT: [Double] = []
var buildT: [Double] = []
var directT: [Double] = []
var currentT: [Double] = []
var queryT: [Double] = []
for _ in 0..<7 {
    // Each result in its own variable: freeing the one before is not timed.
    var decoded: [CulturalEventRow] = []
    var built: [CulturalProgram] = []
    var direct: [CulturalProgram] = []
    var current: [CulturalProgram] = []
    decodeT.append(try await time { decoded = try SeoulAnswerParser.parse(body).rows })
    buildT.append(await time { built = decoded.compactMap { try? CulturalProgram(row: $0) } })
    directT.append(try await time { direct = try SeoulAnswerParser.programs(body).programs })
    guard direct == built else { fatalError("the direct scan and the rows' way disagree") }
    currentT.append(await time { current = CulturalProgram.currentAndUpcoming(direct, today: anchor) })
    queryT.append(await time { shown = ProgramQuery(search: "콘서트", isFreeOnly: true).apply(to: current).count })
}
var foundationT: [Double] = []
for _ in 0..<3 { foundationT.append(try await time { _ = try SeoulAnswerParser.parse(body, reading: .foundation) }) }
print(
    String(
        format: "  JSON decode: scanner %.1f ms vs JSONDecoder (reference) %.1f ms: %.1f× faster",
        median(decodeT) * 1000, median(foundationT) * 1000, median(foundationT) / median(decodeT)))
print(
    String(
        format: "  stages before (one thread): JSON decode into rows %.1f ms · model building %.1f ms",
        median(decodeT) * 1000, median(buildT) * 1000))
print(
    String(
        format: "  stages now (one thread): JSON straight into programs %.1f ms · keep current + sort %.1f ms · query %.1f ms",
        median(directT) * 1000, median(currentT) * 1000, median(queryT) * 1000))

/// Sets the stand-in's knobs.
struct TestControl {
    let baseURL: URL

    func set(_ query: String) async throws {
        _ = try await NetworkClient().response(ControlEndpoint(baseURL: baseURL, query: query))
    }
}

/// `POST /seoul/_control?…`.
struct ControlEndpoint: Endpoint {
    let baseURL: URL
    let query: String
    var path: String { "/seoul/_control" }
    var method: HTTPMethod { .post }
    var task: HTTPTask {
        var parameters: RequestParameters = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { parameters[String(parts[0])] = String(parts[1]) }
        }
        return .requestParameters(parameters, encoding: .url)
    }
}
