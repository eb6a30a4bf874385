import Courier
import CourierSandbox
import Foundation
import HackerNewsAPI

/// The Hacker News part of `courier demo`: the seed's growing story list, a missing item, the
/// 1,200-comment thread fetched breadth-first, and a user — against the sandbox's stand-in.
enum HackerNewsDemo {
    static func run(baseURL: URL, output: @escaping @Sendable (String) -> Void) async -> (steps: Int, failures: Int) {
        output("\n── HackerNewsAPI: the seed's stories(), growing as stories arrive (stand-in at /hn/v0/, 20 ms per item) ──")
        let hackerNews = HackerNewsClient(baseURL: baseURL.appendingPathComponent("hn/v0/"), maxStories: 12, maxConcurrent: 4)
        let clock = ContinuousClock()
        var failures = 0
        do {
            _ = try await NetworkClient().response(HackerNewsControl(baseURL: baseURL, latencyMs: 20), validatingStatus: false)
            let start = clock.now
            var sizes: [Int] = []
            var last: [RankedStory] = []
            for try await stories in hackerNews.stories(list: .top) {
                sizes.append(stories.count)
                last = stories
            }
            let ok = last.first?.id == 8863 && sizes == Array(1...sizes.count)
            if !ok { failures += 1 }
            output(
                "\(ok ? "✓" : "✗") top: arrays of \(sizes.map(String.init).joined(separator: ", ")) stories in \(ms(clock.now - start)) ms; skipped ids left gaps: ranks \(last.map { String($0.rank) }.joined(separator: " "))"
            )
            for story in last.prefix(3) { output("    \(story.rank). \(story.title ?? "") (\(story.host ?? "no link")) by \(story.by ?? "?")") }

            let missing = try await hackerNews.story(id: 41_000_990)
            if missing != nil { failures += 1 }
            output("\(missing == nil ? "✓" : "✗") story(id: 41000990) → nil (the API answers null; not an error)")

            let threadStart = clock.now
            let thread = try await HackerNewsClient(baseURL: baseURL.appendingPathComponent("hn/v0/"), maxConcurrent: 16).comments(of: 42_000_000)
            let count = thread.reduce(0) { $0 + $1.count }
            let depth = thread.map(\.depth).max() ?? 0
            if count < 1000 { failures += 1 }
            output(
                "\(count >= 1000 ? "✓" : "✗") comments(of: 42000000): \(count) comments, \(depth) levels, 16 at once, in \(ms(clock.now - threadStart)) ms (one by one: ≈ \(1200 * 20) ms)"
            )

            let pg = try await hackerNews.user(id: "pg")
            if pg?.karma == nil { failures += 1 }
            output("\(pg != nil ? "✓" : "✗") user(id: \"pg\") → karma \(pg?.karma ?? 0), \(pg?.submitted?.count ?? 0) submissions")
            _ = try await NetworkClient().response(HackerNewsControl(baseURL: baseURL, latencyMs: 0), validatingStatus: false)
        } catch {
            failures += 1
            output("✗ Hacker News → \(NetworkError(error).log(file: "HackerNewsDemo.swift", function: "run"))")
        }
        return (4, failures)
    }

    static func ms(_ duration: Duration) -> Int {
        Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }
}
