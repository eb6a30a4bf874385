import Courier
import CourierObservability
import CourierResilience
import Foundation
import HTTPTypes

/// The calm-under-load part of `courier demo`: a hedged request, a circuit breaker and rate-limit
/// pacing, each against the sandbox's routes built for them.
enum CalmDemo {
    struct Route: Endpoint {
        let baseURL: URL
        let path: String
        var query: RequestParameters = [:]
        var method: HTTPMethod { .get }
        var task: HTTPTask { .requestParameters(query, encoding: .url) }
    }

    static func run(baseURL: URL, output: @escaping @Sendable (String) -> Void) async -> (steps: Int, failures: Int) {
        output("\n── Calm under load: a hedged request, a circuit breaker, pacing by announced rate limits ──")
        var steps = 0
        var failures = 0
        func check(_ ok: Bool, _ line: String) {
            steps += 1
            if !ok { failures += 1 }
            output("\(ok ? "✓" : "✗") \(line)")
        }
        let key = UUID().uuidString.prefix(8)

        // A GET whose first request takes 5 s; its hedge, 100 ms later, answers at once.
        let hedged = NetworkClient(
            configuration: .init(baseURL: baseURL, middlewares: [HedgingMiddleware(policy: HedgingPolicy(delay: .fixed(.milliseconds(100))))]))
        let timeline = CallTimeline()
        let start = ContinuousClock.now
        do {
            let response = try await hedged.recording(into: timeline).response(
                Route(baseURL: baseURL, path: "/counted/calm-\(key)", query: ["delayMs": 5000, "slowHits": 1]))
            let took = ContinuousClock.now - start
            let won = timeline.steps.contains { $0.kind == .hedgeWon(byHedge: true) }
            check(
                won && took < .seconds(3) && response.headers[HTTPField.Name("X-Hit")!] == "2",
                "GET a route whose first request takes 5 s, with HedgingMiddleware (100 ms) → answered in \(took.formatted(.units(allowed: [.milliseconds]))) by the hedge —"
            )
            for line in timeline.waterfall().split(separator: "\n") { output("    " + line) }
        } catch {
            check(false, "hedged GET → \(error.log())")
        }

        // Five failures open the breaker; the next call fails at once, no socket.
        let breaker = CircuitBreakerMiddleware(
            policy: CircuitBreakerPolicy(failureRatio: 0.5, minimumThroughput: 5, breakDuration: .seconds(2)))
        let guarded = NetworkClient(configuration: .init(baseURL: baseURL, middlewares: [breaker]))
        let outage = Route(baseURL: baseURL, path: "/flaky/calm-\(key)", query: ["failForMs": 60000])
        for _ in 0..<5 { _ = try? await guarded.response(outage) }
        let refusedAt = ContinuousClock.now
        do {
            _ = try await guarded.response(outage)
            check(false, "the breaker did not open after 5 failures")
        } catch NetworkError.circuitOpen(let retryAt) {
            let took = ContinuousClock.now - refusedAt
            check(
                took < .milliseconds(50),
                "5 × 503 with CircuitBreakerMiddleware → the 6th call refused in \(took.formatted(.units(allowed: [.microseconds]))), "
                    + "no socket: circuitOpen, retrying in \(Int((retryAt.timeIntervalSinceNow).rounded())) s")
        } catch {
            check(false, "breaker → \(error.log())")
        }

        // 12 calls at 3 in flight against 5 per second, announced in OpenAI's headers: paced, no 429.
        let paced = NetworkClient(configuration: .init(baseURL: baseURL, middlewares: [RateLimitPacer()]))
        let limited = Route(baseURL: baseURL, path: "/ratelimit/calm-\(key)", query: ["family": "openai", "limit": 5, "windowMs": 1000])
        let pacingStart = ContinuousClock.now
        let statuses = await withTaskGroup(of: [Int].self) { group in
            for _ in 0..<3 {
                group.addTask {
                    var seen: [Int] = []
                    for _ in 0..<4 { seen.append((try? await paced.response(limited).statusCode) ?? 0) }
                    return seen
                }
            }
            return await group.reduce(into: [Int]()) { $0 += $1 }
        }
        let pacingTook = ContinuousClock.now - pacingStart
        check(
            statuses.count == 12 && statuses.allSatisfy { $0 == 200 },
            "12 calls, 3 in flight, against 5/s announced as x-ratelimit-* with RateLimitPacer → \(statuses.filter { $0 == 200 }.count) × 200, "
                + "\(statuses.filter { $0 == 429 }.count) × 429, in \(pacingTook.formatted(.units(allowed: [.seconds, .milliseconds])))")
        return (steps, failures)
    }
}
