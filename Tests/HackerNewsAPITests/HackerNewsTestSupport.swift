import Courier
import CourierSandbox
import Foundation
import HackerNewsAPI
import IntegrationTestSupport

/// Runs `body` against a fresh sandbox's Hacker News stand-in with a client bound to it.
func withHackerNews<T>(
    maxStories: Int = 500,
    maxConcurrent: Int = 16,
    _ body: (RunningSandbox, HackerNewsClient) async throws -> T
) async throws -> T {
    try await withSandbox { sandbox in
        let client = HackerNewsClient(baseURL: standIn(sandbox), maxStories: maxStories, maxConcurrent: maxConcurrent)
        return try await body(sandbox, client)
    }
}

/// The stand-in's API root, `http://127.0.0.1:PORT/hn/v0/`.
func standIn(_ sandbox: RunningSandbox) -> URL {
    sandbox.baseURL.appendingPathComponent("hn/v0/")
}

/// Sets the latency of the stand-in's item calls.
@discardableResult
func setLatency(_ milliseconds: Int, on sandbox: RunningSandbox) async throws -> HackerNewsStats {
    try await NetworkClient().request(
        TestEndpoint(
            baseURL: sandbox.baseURL, path: "/hn/control", method: .post, task: .requestParameters(["latencyMs": milliseconds], encoding: .url)),
        as: HackerNewsStats.self
    )
}

/// The stand-in's counters.
func stats(of sandbox: RunningSandbox) async throws -> HackerNewsStats {
    try await NetworkClient().request(TestEndpoint(baseURL: sandbox.baseURL, path: "/hn/stats"), as: HackerNewsStats.self)
}

/// Well-known ids of the stand-in's data.
enum StandIn {
    static let deletedStory = 41_000_019
    static let deadStory = 41_000_029
    static let missing = 41_000_990
    static let bigThread = 42_000_000
}
