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

// Warm up connections and the data set without latency.
_ = try await SeoulCultureClient(key: key, baseURL: root, today: { anchor }).allPrograms()
try await control.set("latencyMs=\(latencyMs)")

let concurrentClient = SeoulCultureClient(key: key, baseURL: root, maxConcurrentPages: 8, today: { anchor })
let sequentialClient = SeoulCultureClient(key: key, baseURL: root, maxConcurrentPages: 1, today: { anchor })
var concurrent: [Double] = [], sequential: [Double] = [], ideal: [Double] = []
var count = 0
for _ in 0..<runs {
    concurrent.append(try await time { count = try await concurrentClient.allPrograms().count })
    sequential.append(try await time { _ = try await sequentialClient.allPrograms() })
    ideal.append(try await time {
        _ = try await concurrentClient.rows(start: 1, end: 1)
        _ = try await concurrentClient.rows(start: 1, end: 1000)
    })
}
let total = try await concurrentClient.totalCount()
let pages = (total + 999) / 1000
let c = median(concurrent), s = median(sequential), i = median(ideal)
print("Raon load: \(total) rows in \(pages) pages, \(latencyMs) ms per answer, median of \(runs) runs (\(count) current/upcoming kept)")
print("  contender                     time      × ideal")
print(String(format: "  ideal (probe + 1 page)     %6.0f ms    1.00", i * 1000))
print(String(format: "  concurrent (all pages)     %6.0f ms    %.2f   goal ≤ 1.20 %@", c * 1000, c / i, c / i <= 1.2 ? "✓" : "✗"))
print(String(format: "  sequential (1 at a time)   %6.0f ms    %.2f", s * 1000, s / i))
print(String(format: "  sequential / concurrent: %.2f×", s / c))

// 10,000 rows in memory: decode the JSON, make programs, keep the current ones, sort, filter.
try await control.set("latencyMs=0&rows=10000")
var rows: [CulturalEventRow] = []
for start in stride(from: 1, to: 10_001, by: 1000) {
    rows += try await concurrentClient.rows(start: start, end: start + 999).rows
}
await sandbox.stop()
struct Wrapper: Encodable {
    struct Inner: Encodable {
        var list_total_count: Int
        var RESULT: SeoulResult
        var row: [CulturalEventRow]
    }
    var culturalEventInfo: Inner
}
let body = try JSONEncoder().encode(Wrapper(culturalEventInfo: .init(list_total_count: rows.count, RESULT: SeoulResult(code: "INFO-000", message: "정상 처리되었습니다"), row: rows)))
var timings: [Double] = []
var shown = 0
for _ in 0..<7 {
    timings.append(try await time {
        let answer = try SeoulAnswerParser.parse(body)
        let programs = CulturalProgram.currentAndUpcoming(answer.rows.compactMap { try? CulturalProgram(row: $0) }, today: anchor)
        shown = ProgramQuery(search: "콘서트", isFreeOnly: true).apply(to: programs).count
    })
}
let d = median(timings)
print(String(format: "decode + filter + sort of %d rows (%.1f MB JSON): %.1f ms median of 7 (goal ≤ 50 ms %@); %d shown after a search", rows.count, Double(body.count) / 1e6, d * 1000, d <= 0.05 ? "✓" : "✗", shown))

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
