import Courier
import CourierCache
import CourierObservability
import CourierSandbox
import Foundation
import IntegrationTestSupport
import MetricsTestKit
import Testing

/// ``MetricsObserver`` recorded with MetricsTestKit's `TestMetrics`, over real sockets.
@Suite("Metrics: OpenTelemetry's HTTP client duration and Courier's counters, through swift-metrics")
struct MetricsObserverTests {
    @Test("a retried call: one duration per exchange with the OpenTelemetry attributes (503 with error.type, then 200); one retry counted")
    func retried() async throws {
        try await withSandbox { sandbox in
            let metrics = TestMetrics()
            var configuration = NetworkClient.Configuration(
                middlewares: [RetryMiddleware(policy: RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(10)), random: { 1 })])
            configuration.observers = [MetricsObserver(factory: metrics)]
            let client = NetworkClient(configuration: configuration)
            _ = try await client.response(sandbox.get("/flaky/metrics-\(UUID().uuidString.prefix(8))", query: ["failures": 1]))
            await eventually("two exchanges timed") { metrics.timers(label: MetricsObserver.durationLabel).count == 2 }
            let port = String(try #require(sandbox.baseURL.port))
            let base = [("http.request.method", "GET"), ("server.address", "127.0.0.1"), ("server.port", port), ("url.scheme", "http")]
            let failed = try metrics.expectTimer(MetricsObserver.durationLabel, base + [("http.response.status_code", "503"), ("error.type", "503")])
            let succeeded = try metrics.expectTimer(MetricsObserver.durationLabel, base + [("http.response.status_code", "200")])
            #expect(failed.values.count == 1 && succeeded.values.count == 1)
            #expect(failed.values.allSatisfy { $0 > 0 } && succeeded.values.allSatisfy { $0 > 0 })
            #expect(try metrics.expectCounter("courier.client.retries").totalValue == 1)
        }
    }

    @Test("a refused connection: the exchange's duration carries error.type and no status; cache outcomes and de-duplication counted")
    func failuresAndCounters() async throws {
        let metrics = TestMetrics()
        var configuration = NetworkClient.Configuration()
        configuration.observers = [MetricsObserver(factory: metrics)]
        let refusing = RefusingPort()
        await #expect(throws: NetworkError.self) {
            try await NetworkClient(configuration: configuration).response(TestEndpoint(baseURL: refusing.baseURL, path: "/x"))
        }
        await eventually("the refused exchange timed") { !metrics.timers(label: MetricsObserver.durationLabel).isEmpty }
        let timer = try #require(metrics.timers(label: MetricsObserver.durationLabel).first)
        let dimensions = Dictionary(uniqueKeysWithValues: timer.dimensions.map { ($0.0, $0.1) })
        #expect(dimensions["error.type"] == "cannotConnectToHost", "\(dimensions)")
        #expect(dimensions["http.response.status_code"] == nil)
        try await withSandbox { sandbox in
            var cached = NetworkClient.Configuration(middlewares: [DeduplicationMiddleware(), CacheMiddleware()])
            cached.observers = [MetricsObserver(factory: metrics)]
            let client = NetworkClient(configuration: cached)
            let endpoint = sandbox.get("/cache/metrics-\(UUID().uuidString.prefix(8))", query: ["cc": "max-age=60"])
            _ = try await client.response(endpoint)
            _ = try await client.response(endpoint)
            await eventually("cache outcomes counted") {
                (try? metrics.expectCounter("courier.client.cache", [("outcome", "freshHit")]).totalValue) == 1
            }
            #expect(try metrics.expectCounter("courier.client.cache", [("outcome", "miss")]).totalValue == 1)
            #expect(try metrics.expectCounter("courier.client.cache", [("outcome", "stored")]).totalValue == 1)
            let slow = TestEndpoint(
                baseURL: sandbox.baseURL, path: "/counted/metrics-\(UUID().uuidString.prefix(8))",
                task: .requestParameters(["delayMs": 200], encoding: .url))
            async let first = client.response(slow)
            try await Task.sleep(for: .milliseconds(50))
            async let second = client.response(slow)
            _ = try await (first, second)
            await eventually("the joined call counted") { (try? metrics.expectCounter("courier.client.deduplicated").totalValue) == 1 }
        }
    }
}
