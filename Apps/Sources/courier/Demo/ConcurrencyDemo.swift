import Courier
import CourierConcurrency
import CourierSandbox
import Foundation
import Synchronization

/// The concurrency part of `courier demo`: the coin report's ordered reveal and Raon's pagination.
enum ConcurrencyDemo {
    struct Delayed: Decodable, Sendable { let delayedMs: Int }

    struct Sandbox: Endpoint {
        var baseURL: URL
        var path: String
        var query: RequestParameters = [:]
        var method: HTTPMethod { .get }
        var task: HTTPTask { .requestParameters(query, encoding: .url) }
    }

    static func run(baseURL: URL, output: @escaping @Sendable (String) -> Void) async -> (steps: Int, failures: Int) {
        output("\n── CourierConcurrency: three sections at once, revealed top-down 350 ms apart ──")
        let client = NetworkClient()
        let start = ContinuousClock.now
        let log = Mutex<[String]>([])
        @Sendable func ms() -> Int {
            let elapsed = ContinuousClock.now - start
            return Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
        }
        func section(_ id: String, serverMs: Int) -> RevealSection {
            RevealSection(
                id,
                operation: {
                    try await client.request(Sandbox(baseURL: baseURL, path: "/probe/delay/\(serverMs)"), as: Delayed.self)
                }
            ) { state in
                guard state.isFinished else { return }
                let line =
                    "  \(String(format: "%5d", ms())) ms  \(id) → \(state.value.map { "success (server took \($0.delayedMs) ms)" } ?? "\(state)")"
                log.withLock { $0.append(line) }
                output(line)
            }
        }
        // The overview is the slowest, yet it still comes first; the others wait their turn.
        let reveal = OrderedReveal(sections: [section("overview", serverMs: 600), section("weekly", serverMs: 150), section("today", serverMs: 80)])
        await reveal.run()
        var failures = log.withLock { $0.count } == 3 ? 0 : 1

        output("── Raon-style pagination: 10,000 items in 1,000-item pages, 4 at a time ──")
        let paginator = Paginator<SampleItem>(pageSize: 1000, maxConcurrentPages: 4)
        let last = Mutex(0.0)
        do {
            let result = try await paginator.fetchAll(progress: { progress in
                let tenth = (progress.fractionCompleted * 10).rounded(.down)
                let shouldPrint = last.withLock { previous in
                    defer { previous = max(previous, tenth) }
                    return tenth > previous || progress.isFinished
                }
                if shouldPrint {
                    output("  progress \(Int(progress.fractionCompleted * 100))% (\(progress.itemsFetched)/\(progress.totalItems) items)")
                }
            }) { page in
                let answer = try await client.request(
                    Sandbox(baseURL: baseURL, path: "/items", query: ["offset": page.offset, "limit": page.count, "total": 10_000, "delayMs": 30]),
                    as: ItemPage.self
                )
                return Page(items: answer.items, total: answer.total)
            }
            let inOrder = result.items.map(\.id) == Array(0..<10_000)
            if !inOrder { failures += 1 }
            output("\(inOrder ? "✓" : "✗") \(result.items.count) items, in order: \(inOrder)")
        } catch {
            failures += 1
            output("✗ pagination → \(error.log(file: "ConcurrencyDemo.swift", function: "run"))")
        }
        return (2, failures)
    }
}
