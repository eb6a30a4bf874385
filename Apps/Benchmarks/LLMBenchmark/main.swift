import CourierLLM
import Foundation

// CourierLLM benchmark: corpus success rate, valid-JSON speed against plain JSONDecoder,
// messy-input throughput and linearity. Run from the repository root:
//   swift run -c release LLMBenchmark [--corpus FILE] [--out DIR]
// `--streaming` runs only the PartialJSONDecoder rows (100 KB and 1 MB answers);
// `--streaming-restarts [--corpus FILE]` counts its restarts over the corpus; `--streaming-phases`
// splits a streaming run's time into its feeds and its finish(); `--streaming-floor` times what a
// one-byte feed costs before any parsing (a snapshot owning a reference, and without).
// With --out it writes results.json and messy-1mb.txt there (used by Benchmarks/llm-benchmark.sh).

struct Article: Codable {
    let title: String
    let summary: String
    let newsSourceURL: String
}

struct News: Codable {
    let summaryOfTodaysMarketSentiment: String
    let articles: [Article]
}

func argument(_ name: String, default value: String?) -> String? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return value }
    return arguments[index + 1]
}

/// Best wall time of `runs` runs, in seconds.
func measure(runs: Int = 5, _ body: () -> Void) -> Double {
    var best = Double.infinity
    for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    return best
}

/// JSON value equality on JSONSerialization output (object key order ignored).
func same(_ lhs: Any, _ rhs: Any) -> Bool {
    if lhs is NSNull || rhs is NSNull { return lhs is NSNull && rhs is NSNull }
    if let left = lhs as? [String: Any], let right = rhs as? [String: Any] {
        return left.count == right.count && left.allSatisfy { key, value in right[key].map { same(value, $0) } ?? false }
    }
    if let left = lhs as? [Any], let right = rhs as? [Any] {
        return left.count == right.count && zip(left, right).allSatisfy { same($0, $1) }
    }
    if let left = lhs as? String, let right = rhs as? String { return left == right }
    if let left = lhs as? NSNumber, let right = rhs as? NSNumber { return left == right }
    return false
}

/// The schema a harness derives from an expected value.
func schema(for value: Any) -> Any {
    if value is NSNull { return ["type": "null"] }
    if let object = value as? [String: Any] {
        return ["type": "object", "properties": object.mapValues(schema(for:)), "required": Array(object.keys)]
    }
    if let array = value as? [Any] { return ["type": "array", "items": array.first.map(schema(for:)) ?? [:]] }
    if value is String { return ["type": "string"] }
    if let number = value as? NSNumber {
        if isBoolean(number) { return ["type": "boolean"] }
        return ["type": number.doubleValue == number.doubleValue.rounded() ? "integer" : "number"]
    }
    return [:]
}

/// Whether an NSNumber holds a Bool (JSONSerialization on Linux returns Bool for true/false).
func isBoolean(_ number: NSNumber) -> Bool {
    String(cString: number.objCType) == "c" || type(of: number as Any) == Bool.self
}

func corpusRate(path: String) throws -> (exact: Int, total: Int, falsePositives: Int, plainExact: Int) {
    let entries = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [[String: Any]] ?? []
    var exact = 0
    var falsePositives = 0
    var plainExact = 0
    for entry in entries {
        guard let answer = entry["answer"] as? String else { continue }
        let expected = entry["expected"] ?? NSNull()
        let schemaData = try JSONSerialization.data(withJSONObject: schema(for: expected), options: [.fragmentsAllowed])
        let jsonSchema = try JSONSchema(data: schemaData)
        let extracted = try? LLMAnswerDecoder().extract(fromAnswer: answer, schema: jsonSchema).json
        let plain = answer.extractedJSON
        if expected is NSNull {
            if extracted == nil { exact += 1 } else { falsePositives += 1 }
            if plain == nil { plainExact += 1 }
            continue
        }
        func matches(_ text: String?) -> Bool {
            guard let text, let value = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) else { return false }
            return same(value, expected)
        }
        if matches(extracted) { exact += 1 }
        if matches(plain) { plainExact += 1 }
    }
    return (exact, entries.count, falsePositives, plainExact)
}

func sampleNews(_ index: Int) -> News {
    News(
        summaryOfTodaysMarketSentiment: "비트코인은 미국 CPI 발표를 앞두고 신중한 분위기입니다 #\(index). It's cautious; \"관망\" 중.",
        articles: (0..<3).map { article in
            Article(
                title: "기사 \(index)-\(article): 비트코인 12만달러 돌파 시도", summary: "시장 분석가들은 C:\\data\\\(index) 경로의 데이터를 인용했습니다.",
                newsSourceURL: "https://news.example.kr/articles/\(index)/\(article)")
        }
    )
}

/// About `bytes` of messy LLM-style text: fences, prose, single quotes, unquoted keys,
/// trailing commas, comments, Python literals, citations and raw newlines.
func messyAnswer(bytes: Int) -> String {
    var parts = ["물론입니다! 요청하신 JSON입니다.\n```json\n[\n"]
    var size = 0
    var index = 0
    while size < bytes {
        let news = sampleNews(index)
        var item = "  {summaryOfTodaysMarketSentiment: '\(news.summaryOfTodaysMarketSentiment.replacingOccurrences(of: "'", with: "\\'"))', // 요약\n"
        item += "   'hot': True, \"score\": None, \"articles\": [\n"
        for article in news.articles {
            item +=
                "    {\"title\": \"\(article.title)\"[(출처\(index))](https://a.kr/\(index)), 'summary': '\(article.summary.replacingOccurrences(of: "\\", with: "\\\\"))\n두 번째 줄',"
            item += " newsSourceURL: \"\(article.newsSourceURL)\",},\n"
        }
        item += "  ],},\n"
        size += item.utf8.count
        parts.append(item)
        index += 1
    }
    parts.append("]\n```\n추가 질문이 있으면 말씀해 주세요.")
    return parts.joined()
}

/// One streaming measurement: an answer of `bytes` fed in `chunk`-byte chunks.
struct StreamingRow {
    let bytes: Int
    let chunk: Int
    let time: Double
    let whole: Double
    let snapshots: Int
}

/// Feeds a messy answer of about `bytes` to `PartialJSONDecoder` in 1- and 16-byte chunks,
/// keeping the snapshot of the last update after every chunk, then `finish()`; prints each
/// row beside one whole-answer parse of the same text.
func streamingBenchmark(bytes: Int, runs: Int = 3) -> [StreamingRow] {
    let text = messyAnswer(bytes: bytes)
    let answer = Array(text.utf8)
    let whole = measure { _ = try? LLMAnswerDecoder().extract(fromAnswer: text) }
    let expected = try? LLMAnswerDecoder().extract(fromAnswer: text).json
    var rows: [StreamingRow] = []
    for size in [1, 16] {
        var snapshots = 0
        var final: String?
        let time = measure(runs: runs) {
            var decoder = PartialJSONDecoder()
            snapshots = 0
            var index = 0
            // What a caller does: keep the snapshot of the last update (one snapshot per chunk;
            // reading `decoder.snapshot` as well would take a second one).
            var latest: JSONSnapshot?
            while index < answer.count {
                if let update = decoder.feed(answer[index..<min(answer.count, index + size)]) { latest = update.snapshot }
                if latest != nil { snapshots += 1 }
                index += size
            }
            final = try? decoder.finish().snapshot.json
        }
        rows.append(StreamingRow(bytes: answer.count, chunk: size, time: time, whole: whole, snapshots: snapshots))
        print(
            String(
                format:
                    "partial %.0f KB in %d-byte chunks: %.2f ms = %.2fx one whole parse (%.2f ms), %d snapshots, %.0f snapshots/s, final equal: %@",
                Double(answer.count) / 1e3, size, time * 1e3, time / whole, whole * 1e3, snapshots, Double(snapshots) / time,
                final == expected ? "yes" : "NO"))
    }
    return rows
}

if CommandLine.arguments.contains("--streaming") {
    _ = streamingBenchmark(bytes: 100_000, runs: 5)
    _ = streamingBenchmark(bytes: 1_000_000)
    exit(0)
}

if CommandLine.arguments.contains("--streaming-restarts") {
    // Restarts over the corpus, each answer fed one byte at a time, without and with the
    // schema of its expected value (the numbers PartialJSONDecoderTests prints).
    let path = argument("--corpus", default: "../Tests/CourierLLMTests/Fixtures/corpus.json") ?? ""
    let entries = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [[String: Any]] ?? []
    var plain = 0
    var guided = 0
    for entry in entries {
        guard let answer = entry["answer"] as? String else { continue }
        let bytes = Array(answer.utf8)
        func restarts(_ schema: JSONSchema?) -> Int {
            var decoder = PartialJSONDecoder(schema: schema)
            for index in bytes.indices { _ = decoder.feed(bytes[index...index]) }
            _ = try? decoder.finish()
            return decoder.restarts
        }
        plain += restarts(nil)
        if let expected = entry["expected"], !(expected is NSNull) {
            let data = try JSONSerialization.data(withJSONObject: schema(for: expected), options: [.fragmentsAllowed])
            guided += restarts(try JSONSchema(data: data))
        }
    }
    print("partial restarts over \(entries.count) corpus answers (1-byte chunks): \(plain) without schema, \(guided) with")
    exit(0)
}

if CommandLine.arguments.contains("--streaming-phases") {
    // Where a streaming run's time goes: the feeds (with the snapshot kept after each chunk),
    // then finish() and its JSON, beside one whole parse; best of 9 runs each, 100 KB.
    let text = messyAnswer(bytes: 100_000)
    let answer = Array(text.utf8)
    let whole = measure(runs: 9) { _ = try? LLMAnswerDecoder().extract(fromAnswer: text) }
    for size in [1, 16] {
        var feeds = Double.infinity
        var finish = Double.infinity
        for _ in 0..<9 {
            var decoder = PartialJSONDecoder()
            var latest: JSONSnapshot?
            let start = DispatchTime.now().uptimeNanoseconds
            var index = 0
            while index < answer.count {
                if let update = decoder.feed(answer[index..<min(answer.count, index + size)]) { latest = update.snapshot }
                index += size
            }
            let fed = DispatchTime.now().uptimeNanoseconds
            _ = try? decoder.finish().snapshot.json
            let end = DispatchTime.now().uptimeNanoseconds
            feeds = min(feeds, Double(fed - start) / 1e6)
            finish = min(finish, Double(end - fed) / 1e6)
            _ = latest
        }
        print(
            String(
                format: "%2d-byte chunks: feeds %.2f ms, finish + json %.2f ms; whole parse %.2f ms", size, feeds, finish,
                whole * 1e3))
    }
    exit(0)
}

/// What a one-byte feed costs before any parsing (`--streaming-floor`): a feed that only keeps the
/// byte and returns a snapshot owning one reference (as a `JSONSnapshot` owns its log), kept by the
/// caller as the streaming rows keep theirs — and the same without the reference.
enum SnapshotFloor {
    final class Log {
        var changes = 0
    }

    struct Snapshot {
        let log: Log
        let position: Int
    }

    struct Feeder {
        var bytes: [UInt8] = []
        let log = Log()

        @inline(never)
        mutating func feed(_ chunk: ArraySlice<UInt8>) -> Snapshot? {
            chunk.withContiguousStorageIfAvailable { if $0.count == 1 { bytes.append($0[0]) } else { bytes.append(contentsOf: $0) } }
            return Snapshot(log: log, position: bytes.count)
        }

        @inline(never)
        mutating func feedWithoutReference(_ chunk: ArraySlice<UInt8>) -> Int? {
            chunk.withContiguousStorageIfAvailable { if $0.count == 1 { bytes.append($0[0]) } else { bytes.append(contentsOf: $0) } }
            return bytes.count
        }
    }

    static func run() {
        let text = messyAnswer(bytes: 100_000)
        let answer = Array(text.utf8)
        let whole = measure(runs: 9) { _ = try? LLMAnswerDecoder().extract(fromAnswer: text) }
        var kept = 0
        let owning = measure(runs: 9) {
            var feeder = Feeder()
            var latest: Snapshot?
            for index in answer.indices { if let snapshot = feeder.feed(answer[index..<index + 1]) { latest = snapshot } }
            kept &+= latest?.position ?? 0
        }
        let bare = measure(runs: 9) {
            var feeder = Feeder()
            var latest: Int?
            for index in answer.indices { if let position = feeder.feedWithoutReference(answer[index..<index + 1]) { latest = position } }
            kept &+= latest ?? 0
        }
        print(
            String(
                format:
                    "100 KB in 1-byte chunks, no parsing: a snapshot owning a reference %.2f ms = %.2fx one whole parse (%.2f ms); without the reference %.2f ms = %.2fx (%d)",
                owning * 1e3, owning / whole, whole * 1e3, bare * 1e3, bare / whole, kept % 10))
    }
}

if CommandLine.arguments.contains("--streaming-floor") {
    SnapshotFloor.run()
    exit(0)
}

if CommandLine.arguments.contains("--streaming-profile") {
    let answer = Array(messyAnswer(bytes: 100_000).utf8)
    let size = Int(argument("--streaming-profile", default: "1") ?? "1") ?? 1
    var latest: JSONSnapshot?
    for _ in 0..<30 {
        var decoder = PartialJSONDecoder()
        for index in stride(from: 0, to: answer.count, by: size) {
            if let update = decoder.feed(answer[index..<min(answer.count, index + size)]) { latest = update.snapshot }
        }
        _ = try? decoder.finish()
    }
    _ = latest
    exit(0)
}

if CommandLine.arguments.contains("--profile") {
    let text = messyAnswer(bytes: 1_000_000)
    for _ in 0..<30 { _ = try? LLMAnswerDecoder().extract(fromAnswer: text) }
    exit(0)
}

if CommandLine.arguments.contains("--sizes") {
    for size in [100_000, 200_000, 500_000, 1_000_000, 2_000_000, 4_000_000] {
        let text = messyAnswer(bytes: size)
        let time = measure { _ = try? LLMAnswerDecoder().extract(fromAnswer: text) }
        print(String(format: "%8d bytes: %8.2f ms  %.1f MB/s", text.utf8.count, time * 1e3, Double(text.utf8.count) / 1e6 / time))
    }
    exit(0)
}

let corpusPath = argument("--corpus", default: "../Tests/CourierLLMTests/Fixtures/corpus.json") ?? ""
let outDirectory = argument("--out", default: nil)
var results: [String: Any] = [:]

if FileManager.default.fileExists(atPath: corpusPath) {
    let rate = try corpusRate(path: corpusPath)
    results["corpus_total"] = rate.total
    results["corpus_exact"] = rate.exact
    results["corpus_false_positives"] = rate.falsePositives
    results["corpus_plain_exact"] = rate.plainExact
    print("corpus: \(rate.exact)/\(rate.total) exact with schema, \(rate.plainExact)/\(rate.total) without, \(rate.falsePositives) false positives")
}

// ~1 MB of valid JSON: CourierLLM decode against plain JSONDecoder.
var newsList: [News] = []
var validData = Data()
while validData.count < 1_000_000 {
    newsList.append(sampleNews(newsList.count))
    if newsList.count % 100 == 0 { validData = try JSONEncoder().encode(newsList) }
}
let validText = String(decoding: validData, as: UTF8.self)
let plainTime = measure { _ = try? JSONDecoder().decode([News].self, from: validData) }
let courierTime = measure { _ = try? LLMAnswerDecoder().decode([News].self, fromAnswer: validText) }
let extractValidTime = measure { _ = try? LLMAnswerDecoder().extract(fromAnswer: validText) }
results["valid_bytes"] = validData.count
results["valid_plain_s"] = plainTime
results["valid_courier_s"] = courierTime
results["valid_extract_s"] = extractValidTime
print(
    String(
        format: "valid %.2f MB: JSONDecoder %.2f ms, CourierLLM decode %.2f ms (%.0f%% of JSONDecoder speed), extract %.2f ms",
        Double(validData.count) / 1e6, plainTime * 1e3, courierTime * 1e3, plainTime / courierTime * 100, extractValidTime * 1e3))

// Messy input: throughput and linearity.
let messyLarge = messyAnswer(bytes: 1_000_000)
let messySmall = messyAnswer(bytes: 100_000)
let largeBytes = messyLarge.utf8.count
let smallBytes = messySmall.utf8.count
guard (try? LLMAnswerDecoder().decode([News].self, fromAnswer: messyLarge)) != nil else {
    print("error: the messy sample did not decode")
    exit(1)
}
let messyExtract = measure { _ = try? LLMAnswerDecoder().extract(fromAnswer: messyLarge) }
let messyDecode = measure { _ = try? LLMAnswerDecoder().decode([News].self, fromAnswer: messyLarge) }
let messySmallTime = measure { _ = try? LLMAnswerDecoder().extract(fromAnswer: messySmall) }
results["messy_bytes"] = largeBytes
results["messy_extract_s"] = messyExtract
results["messy_decode_s"] = messyDecode
results["messy_small_bytes"] = smallBytes
results["messy_small_s"] = messySmallTime
print(
    String(
        format: "messy %.2f MB: extract %.2f ms (%.1f MB/s), decode %.2f ms (%.1f MB/s)",
        Double(largeBytes) / 1e6, messyExtract * 1e3, Double(largeBytes) / 1e6 / messyExtract,
        messyDecode * 1e3, Double(largeBytes) / 1e6 / messyDecode))
print(
    String(
        format: "linearity: %.0f KB %.2f ms, %.0f KB %.2f ms, ratio %.1fx for %.1fx the size",
        Double(smallBytes) / 1e3, messySmallTime * 1e3, Double(largeBytes) / 1e3, messyExtract * 1e3,
        messyExtract / messySmallTime, Double(largeBytes) / Double(smallBytes)))

// Streaming: a ~100 KB answer fed to PartialJSONDecoder in 1-byte and 16-byte chunks, a
// snapshot taken after every chunk, against one whole-answer parse of the same text. The time
// is the feeds, the snapshots and `finish()` (which runs the whole-answer decoder once); the
// check that the final value equals the whole decoder's is made outside the timed runs.
let streamingRows = streamingBenchmark(bytes: 100_000)
results["partial_bytes"] = streamingRows[0].bytes
results["partial_whole_s"] = streamingRows[0].whole
for row in streamingRows {
    results["partial_\(row.chunk)_s"] = row.time
    results["partial_\(row.chunk)_snapshots"] = row.snapshots
}

if let outDirectory {
    try FileManager.default.createDirectory(atPath: outDirectory, withIntermediateDirectories: true)
    try Data(messyLarge.utf8).write(to: URL(fileURLWithPath: outDirectory + "/messy-1mb.txt"))
    try JSONSerialization.data(withJSONObject: results, options: [.prettyPrinted, .sortedKeys])
        .write(to: URL(fileURLWithPath: outDirectory + "/results.json"))
}
