import Courier
import CourierSandbox
import Foundation

/// Runs `body` against a fresh sandbox (its own probe counters) on an ephemeral loopback port.
func withSandbox<T>(_ body: (RunningSandbox, NetworkClient) async throws -> T) async throws -> T {
    try await SandboxServer.withRunning { try await body($0, NetworkClient()) }
}

/// Any GET against the sandbox.
struct SandboxGet: Endpoint {
    var baseURL: URL
    var path: String
    var query: RequestParameters = [:]

    var method: HTTPMethod { .get }
    var task: HTTPTask { query.isEmpty ? .requestPlain : .requestParameters(query, encoding: .url) }
}

/// `/probe/delay/{ms}`'s answer.
struct Delayed: Decodable, Sendable, Equatable {
    var delayedMs: Int
}

extension RunningSandbox {
    func delay(_ ms: Int) -> SandboxGet { SandboxGet(baseURL: baseURL, path: "/probe/delay/\(ms)") }

    func stats(_ client: NetworkClient) async throws -> ProbeStats {
        try await client.request(SandboxGet(baseURL: baseURL, path: "/probe/stats"), as: ProbeStats.self)
    }

    func items(total: Int, offset: Int, limit: Int, delayMs: Int = 0) -> SandboxGet {
        SandboxGet(baseURL: baseURL, path: "/items", query: ["total": total, "offset": offset, "limit": limit, "delayMs": delayMs])
    }
}
