import Courier
import CourierObservability
import CourierOutbox
import CourierTransfers
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Synchronization

/// The resilience part of `courier demo`: retry with backoff, a write retried safely with an
/// idempotency key, server-sent events with resume, and de-duplication, each against the
/// sandbox's routes built for them.
enum ResilienceDemo {
    enum ResilienceAPI: Endpoint {
        case flaky(key: String, failures: Int)
        case events(count: Int, dropAfter: Int)
        case counted(key: String)
        case order(store: String)

        var baseURL: URL { URL(string: "http://127.0.0.1:8080")! }
        var path: String {
            switch self {
            case .flaky(let key, _): "/flaky/\(key)"
            case .events: "/sse/events"
            case .counted(let key): "/counted/\(key)"
            case .order(let store): "/idempotent/\(store)"
            }
        }
        var method: HTTPMethod {
            if case .order = self { return .post }
            return .get
        }
        var task: HTTPTask {
            switch self {
            case .flaky(_, let failures): .requestParameters(["failures": failures, "retryAfter": "0"], encoding: .url)
            case .events(let count, let dropAfter): .requestParameters(["count": count, "dropAfter": dropAfter, "retry": 50], encoding: .url)
            case .counted: .requestParameters(["delayMs": 150], encoding: .url)
            case .order: .requestComposite(query: ["loseAnswers": 1], body: .requestJSONEncodable(["item": "tea"]))
            }
        }
        /// A write that wants an idempotency key: retried safely.
        var traits: CallTraits {
            if case .order = self { return CallTraits(wantsIdempotencyKey: true) }
            return CallTraits()
        }
    }

    struct Created: Decodable, Sendable { let id: Int }
    struct Stats: Decodable, Sendable { let created: Int, requests: Int }
    struct StoreStats: Endpoint {
        let baseURL: URL
        let store: String
        var path: String { "/idempotent/\(store)/stats" }
        var method: HTTPMethod { .get }
        var task: HTTPTask { .requestPlain }
    }

    struct Flaky: Decodable, Sendable { let attempt: Int }

    static func run(baseURL: URL, output: @escaping @Sendable (String) -> Void) async -> (steps: Int, failures: Int) {
        output("\n── Resilience: retry, a write retried safely, server-sent events, de-duplication ──")
        var steps = 0
        var failures = 0
        func check(_ ok: Bool, _ line: String) {
            steps += 1
            if !ok { failures += 1 }
            output("\(ok ? "✓" : "✗") \(line)")
        }
        let key = UUID().uuidString.prefix(8)
        let retrying = NetworkClient(
            configuration: .init(baseURL: baseURL, middlewares: [RetryMiddleware(policy: RetryPolicy(baseDelay: .milliseconds(50)))]))
        let timeline = CallTimeline()
        do {
            let answer = try await retrying.recording(into: timeline).request(ResilienceAPI.flaky(key: "demo-\(key)", failures: 2), as: Flaky.self)
            check(answer.attempt == 3, "GET /flaky (503 twice) with RetryMiddleware → 200 on attempt \(answer.attempt) (Retry-After honoured)")
            // The call's waterfall: what `courier request --trace` prints.
            let attempts = timeline.steps.filter { if case .attemptStarted = $0.kind { true } else { false } }.count
            let retries = timeline.steps.filter { if case .retryScheduled = $0.kind { true } else { false } }.count
            check(attempts == 3 && retries == 2, "its timeline: \(attempts) attempts, \(retries) retries scheduled —")
            for line in timeline.waterfall().split(separator: "\n") { output("    " + line) }
        } catch {
            check(false, "retry → \(error.log())")
        }

        do {
            let store = "demo-\(key)"
            let created = try await retrying.request(ResilienceAPI.order(store: store), as: Created.self)
            let stats = try await NetworkClient().request(StoreStats(baseURL: baseURL, store: store), as: Stats.self)
            check(
                stats.created == 1 && stats.requests == 2 && created.id == 1,
                "POST /idempotent (its answer lost after the work) with an Idempotency-Key → retried with the same key: \(stats.requests) requests, \(stats.created) order created"
            )
        } catch {
            check(false, "idempotent write → \(error.log())")
        }

        await outboxStep(baseURL: baseURL, store: "demo-outbox-\(key)", check: check)

        let client = NetworkClient(configuration: .init(baseURL: baseURL))
        do {
            var ids: [String] = []
            for try await event in client.events(
                ResilienceAPI.events(count: 6, dropAfter: 2), options: .init(reconnect: .init(delay: .milliseconds(50))))
            {
                ids.append(event.id ?? "-")
            }
            check(
                ids == ["1", "2", "3", "4", "5", "6"],
                "SSE cut every 2 events, resumed with Last-Event-ID → ids \(ids.joined(separator: ",")), none lost or repeated")
        } catch {
            check(false, "SSE → \(error.log())")
        }

        let shared = NetworkClient(configuration: .init(baseURL: baseURL, middlewares: [DeduplicationMiddleware()]))
        let start = ContinuousClock.now
        let hits = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<20 {
                group.addTask { try? await shared.response(ResilienceAPI.counted(key: "demo-\(key)")).headers[HTTPField.Name("X-Hit")!] }
            }
            return await group.reduce(into: Set<String>()) { if let hit = $1 { $0.insert(hit) } }
        }
        let elapsed = ContinuousClock.now - start
        check(
            hits == ["1"],
            "20 identical GETs with DeduplicationMiddleware → \(hits.count) upstream request in \(elapsed.formatted(.units(allowed: [.milliseconds])))"
        )
        return (steps, failures)
    }

    /// A write made while the device is offline (a middleware that fails every call as a phone
    /// without a network does): kept in an outbox on disk, then delivered once when it is back.
    static func outboxStep(baseURL: URL, store: String, check: (Bool, String) -> Void) async {
        let network = NetworkSwitch()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-demo-outbox-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let outbox = try Outbox(directory: directory, client: NetworkClient(configuration: .init(middlewares: [network])))
            let base = baseURL.absoluteString.hasSuffix("/") ? String(baseURL.absoluteString.dropLast()) : baseURL.absoluteString
            let outcome = try await outbox.send(OutboxWrite(url: base + "/idempotent/\(store)", json: Data(#"{"item":"tea"}"#.utf8)))
            guard case .queued(let entry, _) = outcome else {
                check(false, "outbox: a write made offline was not queued (\(outcome))")
                return
            }
            network.online.store(true, ordering: .relaxed)
            let report = await outbox.flush()
            let stats = try await NetworkClient().request(StoreStats(baseURL: baseURL, store: store), as: Stats.self)
            let left = await outbox.entries()
            check(
                report.delivered == [entry.id] && stats.created == 1 && stats.requests == 1 && left.isEmpty,
                "POST while offline → kept in an outbox on disk (queued, key \(entry.idempotencyKey)); online again, flush → delivered: \(stats.created) order created"
            )
        } catch {
            check(false, "outbox → \(error)")
        }
    }

    /// The device's network, as the demo switches it: offline, every call fails as a phone
    /// without a network fails it (`notConnectedToInternet`).
    final class NetworkSwitch: ClientMiddleware, Sendable {
        let online = Atomic(false)

        func intercept(
            _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
            next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
        ) async throws -> (HTTPResponse, HTTPBody?) {
            guard online.load(ordering: .relaxed) else { throw URLError(.notConnectedToInternet) }
            return try await next(request, body, baseURL)
        }
    }
}
