import Courier
import CourierSandbox
import CourierTesting
import Foundation
import HTTPTypes
import IntegrationTestSupport
import Testing

/// ``RetryMiddleware`` against the sandbox's `/flaky/{key}` route, with a recording clock.
@Suite("Retry over sockets", .tags(.timing))
struct RetrySocketTests {
    /// What `/flaky/{key}` answers once it succeeds.
    struct Flaky: Decodable, Sendable {
        var key: String
        var attempt: Int
        var method: String
        var body: String
    }

    struct FlakyStats: Decodable, Sendable {
        var attempts: Int
        var failures: Int
        var successes: Int
    }

    let key = "k-\(UUID().uuidString.prefix(8))"

    func flaky(
        _ sandbox: RunningSandbox, _ query: RequestParameters, method: HTTPMethod = .get, body: String? = nil,
        headers: [String: String]? = nil, timeout: Duration? = nil
    ) -> TestEndpoint {
        let task: HTTPTask =
            body.map { .requestComposite(query: query, body: .requestData(Data($0.utf8), contentType: "text/plain")) }
            ?? .requestParameters(query, encoding: .url)
        return TestEndpoint(baseURL: sandbox.baseURL, path: "/flaky/\(key)", method: method, task: task, headers: headers, timeout: timeout)
    }

    /// Attempts the server saw for this key (-1 when the stats cannot be read).
    func attempts(_ sandbox: RunningSandbox) async -> Int {
        let stats = try? await NetworkClient().request(TestEndpoint(baseURL: sandbox.baseURL, path: "/flaky/\(key)/stats"), as: FlakyStats.self)
        return stats?.attempts ?? -1
    }

    func client(
        _ clock: RecordingClock, policy: RetryPolicy = RetryPolicy(baseDelay: .milliseconds(100)),
        budget: RetryPolicy.Budget? = nil, kind: TransportKind = .asyncHTTPClient, logs: LogCapture? = nil
    ) -> NetworkClient {
        let retry = RetryMiddleware(policy: policy, budget: budget, logger: logs?.logger() ?? .init(label: "test"), clock: clock, random: { 1 })
        return NetworkClient(configuration: .init(transport: kind.make(), middlewares: [retry]))
    }

    @Test("503 twice, then success: three attempts, backoff 100 ms then 200 ms", arguments: TransportKind.allCases)
    func retriesThenSucceeds(_ kind: TransportKind) async throws {
        try await withSandbox { sandbox in
            let clock = RecordingClock()
            let answer: Flaky = try await client(clock, kind: kind).request(flaky(sandbox, ["failures": 2]))
            #expect(answer.attempt == 3)
            #expect(clock.sleeps == [.milliseconds(100), .milliseconds(200)])
            #expect(await attempts(sandbox) == 3)
        }
    }

    @Test("after maxAttempts the last answer's error stands")
    func givesUp() async throws {
        try await withSandbox { sandbox in
            let clock = RecordingClock()
            await #expect(throws: NetworkError.serviceUnavailable(503)) {
                _ = try await client(clock).response(flaky(sandbox, ["failures": 5]))
            }
            #expect(await attempts(sandbox) == 3)
            #expect(clock.sleeps.count == 2)
        }
    }

    @Test("Retry-After in seconds and as an HTTP date is waited for; one over the cap is not")
    func retryAfter() async throws {
        try await withSandbox { sandbox in
            let clock = RecordingClock()
            _ = try await client(clock).response(flaky(sandbox, ["failures": 1, "status": 429, "retryAfter": "2"]))
            #expect(clock.sleeps == [.seconds(2)])

            let date = Date().addingTimeInterval(6)
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
            let dated = RetrySocketTests()
            let dateClock = RecordingClock()
            _ = try await client(dateClock).response(
                dated.flaky(sandbox, ["failures": 1, "status": 503, "retryAfter": formatter.string(from: date)]))
            let waited = try #require(dateClock.sleeps.first)
            #expect(waited > .seconds(1) && waited <= .seconds(6), "\(waited)")

            let capped = RetrySocketTests()
            let cappedClock = RecordingClock()
            await #expect(throws: NetworkError.rateLimited(retryAfter: 120)) {
                _ = try await client(cappedClock, policy: RetryPolicy(maxRetryAfter: .seconds(60)))
                    .response(capped.flaky(sandbox, ["failures": 1, "status": 429, "retryAfter": "120"]))
            }
            #expect(cappedClock.sleeps.isEmpty)
            #expect(await capped.attempts(sandbox) == 1)
        }
    }

    @Test("POST is not retried; with an Idempotency-Key it is, and its body is replayed")
    func idempotency() async throws {
        try await withSandbox { sandbox in
            let clock = RecordingClock()
            await #expect(throws: NetworkError.serviceUnavailable(503)) {
                _ = try await client(clock).response(flaky(sandbox, ["failures": 1], method: .post, body: "주문 #1"))
            }
            #expect(await attempts(sandbox) == 1)
            let keyed = RetrySocketTests()
            let answer: Flaky = try await client(clock).request(
                keyed.flaky(
                    sandbox, ["failures": 1], method: .post, body: "주문 #2",
                    headers: ["Idempotency-Key": "order-2"]))
            #expect(answer.attempt == 2 && answer.body == "주문 #2" && answer.method == "POST")
        }
    }

    @Test("the budget stops retries when the server keeps failing: 3 attempts for 2 calls instead of 6")
    func budget() async throws {
        try await withSandbox { sandbox in
            let clock = RecordingClock()
            let budget = RetryPolicy.Budget(maxTokens: 4, tokenRatio: 0.1)
            let client = client(clock, budget: budget)
            for _ in 0..<2 {
                await #expect(throws: NetworkError.serviceUnavailable(503)) { _ = try await client.response(flaky(sandbox, ["failures": 100])) }
            }
            #expect(await attempts(sandbox) == 3)
            #expect(budget.available == 1)
        }
    }

    @Test("no retry that would end after the call's deadline")
    func deadline() async throws {
        try await withSandbox { sandbox in
            let clock = RecordingClock()
            let start = ContinuousClock.now
            await #expect(throws: NetworkError.serviceUnavailable(503)) {
                // A 10 s deadline (room for a loaded machine to get the 503 back: 3 s was too
                // little beside a release build) and a Retry-After of 60 s that would overrun it.
                _ = try await client(clock).response(flaky(sandbox, ["failures": 1, "retryAfter": "60"], timeout: .seconds(10)))
            }
            #expect(clock.sleeps.isEmpty && ContinuousClock.now - start < .seconds(10))
            #expect(await attempts(sandbox) == 1)
        }
    }

    @Test("a refused connection is retried; each retry is logged with reason and delay, secrets redacted")
    func transportFailure() async throws {
        let refusing = RefusingPort()
        let clock = RecordingClock()
        let logs = LogCapture()
        let endpoint = TestEndpoint(
            baseURL: refusing.baseURL, path: "/x", task: .requestParameters(["api_key": "sk-live-123"], encoding: .url),
            secrets: ["sk-live-123"])
        await #expect(throws: NetworkError.networkError(URLError(.cannotConnectToHost))) {
            _ = try await client(clock, logs: logs).response(endpoint)
        }
        withExtendedLifetime(refusing) {}
        #expect(clock.sleeps.count == 2)
        let retries = logs.lines.filter { $0.contains(" retrying ") && $0.contains("method=GET") }
        #expect(retries.count == 2)
        #expect(retries.allSatisfy { $0.contains("delayMs=") && $0.contains("reason=networkError") })
        #expect(!logs.text.contains("sk-live-123"))
    }

    @Test("cancelling during the backoff ends at once in taskCancelled, with no further attempt")
    func cancelled() async throws {
        try await withSandbox { sandbox in
            let retry = RetryMiddleware(policy: RetryPolicy(baseDelay: .seconds(30)), random: { 1 })
            let client = NetworkClient(configuration: .init(middlewares: [retry]))
            let endpoint = flaky(sandbox, ["failures": 5])
            let task = Task { () async throws(NetworkError) -> NetworkResponse in try await client.response(endpoint) }
            await eventually { (await attempts(sandbox)) == 1 }
            let start = ContinuousClock.now
            task.cancel()
            let result = await task.result
            #expect(throws: NetworkError.taskCancelled) { try result.get() }
            #expect(ContinuousClock.now - start < .seconds(5), "the backoff was 30 s")
            #expect(await attempts(sandbox) == 1)
        }
    }
}
