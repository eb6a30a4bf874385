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

    static func main() async throws {
        let requests = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 20_000
        let sandbox = try await SandboxServer.start()
        let base = sandbox.baseURL
        let url = base.absoluteString + "/json"

        var settings = HTTPClientTransport.Settings()
        settings.connectionsPerHost = 64
        let courierTransport = HTTPClientTransport(settings: settings)
        let courier = NetworkClient(transport: courierTransport)
        let stockTransport = OpenAPIAsyncHTTPClient.AsyncHTTPClientTransport(configuration: .init(client: courierTransport.client))
        let courierStock = NetworkClient(transport: stockTransport)
        let raw = courierTransport.client
        let session = URLSession(configuration: .ephemeral)
        let decoder = JSONDecoder()
        let sampleBody = try await raw.execute(HTTPClientRequest(url: url), timeout: .seconds(5)).body.collect(upTo: 1 << 20)
        let courierInstant = NetworkClient(transport: InstantTransport(body: Data(buffer: sampleBody)))
        let endpoint = StoryEndpoint(baseURL: base)

        let contenders: [Contender] = [
            ("raw AsyncHTTPClient", {
                let response = try await raw.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
                let body = try await response.body.collect(upTo: 1 << 24)
                let story = try decoder.decode(Story.self, from: body)
                precondition(story.id == 8863)
            }),
            ("Courier (HTTPClientTransport)", {
                let story = try await courier.request(endpoint, as: Story.self)
                precondition(story.id == 8863)
            }),
            ("Courier (stock OpenAPI AHC transport)", {
                let story = try await courierStock.request(endpoint, as: Story.self)
                precondition(story.id == 8863)
            }),
            ("raw AsyncHTTPClient (future API)", {
                let request = try HTTPClient.Request(url: url)
                let response = try await raw.execute(request: request, delegate: ResponseAccumulator(request: request), eventLoop: .indifferent).futureResult.get()
                let story = try decoder.decode(Story.self, from: response.body ?? ByteBuffer())
                precondition(story.id == 8863)
            }),
            ("Courier transport alone (no NetworkClient)", {
                let (_, body) = try await courierTransport.send(HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/json"), body: nil, baseURL: base, operationID: "x")
                let data = try await Data(collecting: body!, upTo: 1 << 24)
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

        // Profiling mode: `COURIER_BENCH_ONLY=<index>` runs one contender at concurrency 1 (for callgrind).
        if let only = ProcessInfo.processInfo.environment["COURIER_BENCH_ONLY"].flatMap(Int.init), contenders.indices.contains(only) {
            let m = try await measure(contenders[only].run, requests: requests, concurrency: Int(ProcessInfo.processInfo.environment["COURIER_BENCH_CONCURRENCY"] ?? "1") ?? 1)
            print("\(contenders[only].name): \(Int(m.throughput)) req/s")
            try await courierTransport.shutdown()
            await sandbox.stop()
            return
        }
        print("Courier benchmark — \(requests) GETs of /json (\(SampleSize.bytes) bytes) decoded, sandbox in-process on \(base.absoluteString)")
        print("machine: \(ProcessInfo.processInfo.activeProcessorCount) cores, release build\n")
        for concurrency in [1, 32] {
            // Warm up every contender (connections, caches).
            for contender in contenders { _ = try await measure(contender.run, requests: 500, concurrency: concurrency) }
            var results: [String: Measurement] = [:]
            // Two halves in opposite orders, so drift does not favour whoever runs first.
            let half = requests / 2
            for order in [contenders, contenders.reversed()] {
                for contender in order {
                    let m = try await measure(contender.run, requests: half, concurrency: concurrency)
                    results[contender.name, default: Measurement()].merge(m)
                }
            }
            let baseline = results["raw AsyncHTTPClient"] ?? Measurement()
            print("concurrency \(concurrency)")
            print(pad("contender", 40) + pad("req/s", 10) + pad("×raw", 8) + pad("p50 µs", 10) + pad("p50 ×raw", 10) + pad("p99 µs", 10))
            for contender in contenders {
                let m = results[contender.name] ?? Measurement()
                print(pad(contender.name, 40)
                      + pad(String(format: "%.0f", m.throughput), 10)
                      + pad(String(format: "%.3f", m.throughput / baseline.throughput), 8)
                      + pad(String(format: "%.0f", m.percentile(0.5)), 10)
                      + pad(String(format: "%.3f", m.percentile(0.5) / baseline.percentile(0.5)), 10)
                      + pad(String(format: "%.0f", m.percentile(0.99)), 10))
            }
            print("")
        }
        try await courierTransport.shutdown()
        await sandbox.stop()
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

/// Answers every request at once with the same body: measures Courier's own per-call cost.
struct InstantTransport: ClientTransport, DeadlineAwareTransport {
    let body: Data
    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), HTTPBody(self.body))
    }
}

