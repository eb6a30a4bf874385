import AsyncHTTPClient
import Courier
import CourierSandbox
import Foundation
import HTTPTypes
import NIOFoundationCompat
import NIOCore
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Courier vs raw AsyncHTTPClient vs URLSession: GETs of a ~400-byte JSON, decoded, against the
/// in-process sandbox, at concurrency 1 and 32. Run with
/// `swift run -c release CourierBenchmarks [requests]` (default 20000).
@main
struct CourierBenchmarks {
    struct Story: Decodable, Sendable {
        let id: Int
        let type: String
        let by: String
        let time: Int
        let title: String
        let url: String
        let score: Int
        let descendants: Int
        let kids: [Int]
    }

    struct StoryEndpoint: Endpoint {
        let baseURL: URL
        var path: String { "/json" }
        var method: Courier.HTTPMethod { .get }
        var task: HTTPTask { .requestPlain }
    }

    typealias Contender = (name: String, run: @Sendable () async throws -> Void)
    static let baselineName = "raw AsyncHTTPClient"
    static let courierName = "Courier (HTTPClientTransport)"

    static func main() async throws {
        let requests = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 20_000
        let sandbox = try await SandboxServer.start()
        let base = sandbox.baseURL
        let url = base.absoluteString + "/json"

        var settings = HTTPClientTransport.Settings()
        settings.connectionsPerHost = 64
        let courierTransport = HTTPClientTransport(settings: settings)
        let courier = NetworkClient(transport: courierTransport)
        let courierStreamed = NetworkClient(transport: courierTransport, middlewares: [PassThrough()])
        // Each contender family has its own HTTPClient (its own pool), as in an app: Courier's
        // transport owns one; raw AsyncHTTPClient users own theirs. All share the default event loops.
        let stockClient = makeClient()
        let stockTransport = OpenAPIAsyncHTTPClient.AsyncHTTPClientTransport(configuration: .init(client: stockClient))
        let courierStock = NetworkClient(transport: stockTransport)
        let raw = makeClient()
        let rawControl = makeClient()
        let rawFuture = makeClient()
        let sketchClient = makeClient()
        let sketchRegistry = CollectorRegistry()
        let session = URLSession(configuration: .ephemeral)
        let decoder = JSONDecoder()
        let sampleBody = try await raw.execute(HTTPClientRequest(url: url), timeout: .seconds(5)).body.collect(upTo: 1 << 20)
        let courierInstant = NetworkClient(transport: InstantTransport(body: Data(buffer: sampleBody)))
        let endpoint = StoryEndpoint(baseURL: base)

        @Sendable func rawAsync(_ client: HTTPClient) -> @Sendable () async throws -> Void {
            {
                let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
                let body = try await response.body.collect(upTo: 1 << 24)
                let story = try decoder.decode(Story.self, from: body)
                precondition(story.id == 8863)
            }
        }
        let allContenders: [Contender] = [
            // The control runs the very same code on its own client: its ratio is the machine's noise.
            ("raw AsyncHTTPClient", rawAsync(raw)),
            ("raw AsyncHTTPClient again (control)", rawAsync(rawControl)),
            ("Courier (HTTPClientTransport)", {
                let story = try await courier.request(endpoint, as: Story.self)
                precondition(story.id == 8863)
            }),
            ("Courier + a middleware (streamed body)", {
                let story = try await courierStreamed.request(endpoint, as: Story.self)
                precondition(story.id == 8863)
            }),
            ("Courier (stock OpenAPI AHC transport)", {
                let story = try await courierStock.request(endpoint, as: Story.self)
                precondition(story.id == 8863)
            }),
            ("raw AsyncHTTPClient (future API)", {
                let request = try HTTPClient.Request(url: url)
                let response = try await rawFuture.execute(request: request, delegate: ResponseAccumulator(request: request), eventLoop: .indifferent).futureResult.get()
                let story = try decoder.decode(Story.self, from: response.body ?? ByteBuffer())
                precondition(story.id == 8863)
            }),
            ("sketch: AHC async + sweepable body task", {
                let data = try await AsyncCollectorSketch.swept(sketchClient, url, sketchRegistry)
                let story = try decoder.decode(Story.self, from: data)
                precondition(story.id == 8863)
            }),
            ("Courier pipeline only (instant transport)", {
                let story = try await courierInstant.request(endpoint, as: Story.self)
                precondition(story.id == 8863)
            }),
            ("JSON decode only", {
                let story = try decoder.decode(Story.self, from: sampleBody)
                precondition(story.id == 8863)
            }),
            ("raw URLSession", {
                let (data, _) = try await session.data(from: URL(string: url)!)
                let story = try decoder.decode(Story.self, from: data)
                precondition(story.id == 8863)
            }),
        ]

        let contenders: [Contender] = ProcessInfo.processInfo.environment["COURIER_BENCH_SET"].map { set in
            set.split(separator: ",").compactMap { Int($0) }.map { allContenders[$0] }
        } ?? allContenders
        // Knobs: `COURIER_BENCH_SET=0,2` runs some contenders; `COURIER_BENCH_ROUNDS`, `COURIER_BENCH_LEVELS=1,32`.
        // Profiling mode: `COURIER_BENCH_ONLY=<index>` runs one contender alone (for `perf record`),
        // at `COURIER_BENCH_CONCURRENCY` (default 1).
        if let only = ProcessInfo.processInfo.environment["COURIER_BENCH_ONLY"].flatMap(Int.init), contenders.indices.contains(only) {
            let m = try await measure(contenders[only].run, requests: requests, concurrency: Int(ProcessInfo.processInfo.environment["COURIER_BENCH_CONCURRENCY"] ?? "1") ?? 1)
            print("\(contenders[only].name): \(Int(m.throughput)) req/s")
            try await courierTransport.shutdown()
            try await raw.shutdown()
            try await rawControl.shutdown()
            try await rawFuture.shutdown()
            try await sketchClient.shutdown()
            try await stockClient.shutdown()
            await sandbox.stop()
            return
        }
        print("Courier benchmark — \(requests) GETs of /json (\(SampleSize.bytes) bytes) decoded per level, sandbox in-process on \(base.absoluteString)")
        let rounds = max(1, ProcessInfo.processInfo.environment["COURIER_BENCH_ROUNDS"].flatMap(Int.init) ?? 40)
        let levels = ProcessInfo.processInfo.environment["COURIER_BENCH_LEVELS"].map { $0.split(separator: ",").compactMap { Int($0) } } ?? [1, 32]
        print("machine: \(ProcessInfo.processInfo.activeProcessorCount) cores, release build; \(rounds) rounds per level, contenders interleaved, order reversed every other round")
        print("×raw: whole-run throughput ratio; rounds: the lowest and highest ratio of single rounds (raw measured in the same round)\n")
        var verdicts: [String] = []
        for concurrency in levels {
            // Warm up every contender (connections, caches).
            for contender in contenders { _ = try await measure(contender.run, requests: 500, concurrency: concurrency) }
            var results: [String: Measurement] = [:]
            var roundRatios: [String: [Double]] = [:]
            // Rounds in alternating orders, so drift does not favour whoever runs first.
            let share = requests / rounds
            for round in 0..<rounds {
                var thisRound: [String: Double] = [:]
                for contender in round % 2 == 0 ? contenders : contenders.reversed() {
                    let m = try await measure(contender.run, requests: share, concurrency: concurrency)
                    results[contender.name, default: Measurement()].merge(m)
                    thisRound[contender.name] = m.throughput
                }
                if let raw = thisRound[baselineName], raw > 0 {
                    for (name, throughput) in thisRound { roundRatios[name, default: []].append(throughput / raw) }
                }
            }
            let baseline = results[baselineName] ?? Measurement()
            print("concurrency \(concurrency)")
            print(pad("contender", 42) + pad("req/s", 9) + pad("×raw", 7) + pad("rounds", 13) + pad("p50 µs", 8) + pad("p50 ×raw", 9) + pad("p99 µs", 8))
            for contender in contenders {
                let m = results[contender.name] ?? Measurement()
                let ratios = roundRatios[contender.name] ?? []
                print(pad(contender.name, 42)
                      + pad(String(format: "%.0f", m.throughput), 9)
                      + pad(String(format: "%.3f", m.throughput / baseline.throughput), 7)
                      + pad(ratios.isEmpty ? "-" : String(format: "%.2f–%.2f", ratios.min()!, ratios.max()!), 13)
                      + pad(String(format: "%.0f", m.percentile(0.5)), 8)
                      + pad(String(format: "%.3f", m.percentile(0.5) / baseline.percentile(0.5)), 9)
                      + pad(String(format: "%.0f", m.percentile(0.99)), 8))
            }
            print("")
            if let courier = results[courierName], baseline.throughput > 0 {
                let ratio = courier.throughput / baseline.throughput
                let p50 = courier.percentile(0.5) / baseline.percentile(0.5)
                let met = ratio >= 0.95 && p50 <= 1.05
                verdicts.append(String(format: "concurrency %d: Courier %.3f× raw throughput, p50 %.3f× — goal (≥ 0.95×, p50 within 5%%) %@", concurrency, ratio, p50, met ? "met" : "NOT met"))
            }
        }
        for verdict in verdicts { print(verdict) }
        try await courierTransport.shutdown()
        try await raw.shutdown()
        try await rawControl.shutdown()
        try await rawFuture.shutdown()
        try await sketchClient.shutdown()
        try await stockClient.shutdown()
        await sandbox.stop()
    }

    /// An HTTPClient set up like Courier's (pool of 64 per host, 3 s connect, 30 s read timeout).
    static func makeClient() -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        configuration.timeout = .init(connect: .seconds(3), read: .seconds(30))
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 64)
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }

    /// Runs `requests` calls with `concurrency` workers; returns wall time and per-call latencies.
    static func measure(_ call: @escaping @Sendable () async throws -> Void, requests: Int, concurrency: Int) async throws -> Measurement {
        let perWorker = requests / concurrency
        let start = ContinuousClock.now
        let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
            for _ in 0..<concurrency {
                group.addTask {
                    var local: [Double] = []
                    local.reserveCapacity(perWorker)
                    for _ in 0..<perWorker {
                        let t0 = ContinuousClock.now
                        try await call()
                        local.append(micros(ContinuousClock.now - t0))
                    }
                    return local
                }
            }
            var all: [Double] = []
            for try await part in group { all += part }
            return all
        }
        return Measurement(seconds: micros(ContinuousClock.now - start) / 1e6, latencies: latencies)
    }

    static func micros(_ d: Duration) -> Double {
        Double(d.components.seconds) * 1e6 + Double(d.components.attoseconds) / 1e12
    }
}

/// Wall time and latencies of one or more runs.
struct Measurement {
    var seconds: Double = 0
    var latencies: [Double] = []

    var throughput: Double { seconds > 0 ? Double(latencies.count) / seconds : 0 }

    mutating func merge(_ other: Measurement) {
        seconds += other.seconds
        latencies += other.latencies
    }

    func percentile(_ p: Double) -> Double {
        guard !latencies.isEmpty else { return 0 }
        let sorted = latencies.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
    }
}

enum SampleSize {
    static let bytes = 399
}

/// Changes nothing; makes a client take the streamed-`HTTPBody` path instead of the buffered one.
struct PassThrough: ClientMiddleware {
    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        try await next(request, body, baseURL)
    }
}

/// Answers every request at once with the same body: measures Courier's own per-call cost.
struct InstantTransport: ClientTransport, DeadlineAwareTransport {
    let body: Data
    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), HTTPBody(self.body))
    }
}

