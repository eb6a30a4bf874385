import AlanAPI
import Courier
import Foundation

/// The core part of `courier demo`: typed endpoints against the sandbox, each error case shown.
enum CoreDemo {
    struct Summary {
        var steps = 0
        var failures = 0
        var oneLine = ""
    }

    /// The sandbox's httpbin-style routes as a Courier endpoint enum; the client's base URL
    /// points it at the sandbox's ephemeral port.
    enum SandboxAPI: Endpoint {
        case sample
        case echo(query: String)
        case status(Int)
        case seedStatus(Int)
        case invalidJSON
        case slow(ms: Int)

        var baseURL: URL { URL(string: "http://127.0.0.1:8080")! }
        var path: String {
            switch self {
            case .sample: "/json"
            case .echo: "/echo/검색"
            case .status(let code), .seedStatus(let code): "/status/\(code)"
            case .invalidJSON: "/wrong-type"
            case .slow(let ms): "/probe/slow/\(ms)"
            }
        }
        var method: HTTPMethod { .get }
        var task: HTTPTask {
            switch self {
            case .echo(let query): .requestParameters(["q": query, "client_id": "demo-secret-key"], encoding: .url)
            default: .requestPlain
            }
        }
        var statusMapping: StatusMapping {
            if case .seedStatus = self { return .alan }
            return .standard
        }
        var timeout: Duration? {
            if case .slow = self { return .milliseconds(300) }
            return nil
        }
    }

    struct Story: Decodable, Sendable {
        let id: Int
        let title: String
        let kids: [Int]
    }
    struct Echo: Decodable, Sendable {
        let pathSegments: [String]
        let query: [[String]]
    }
    struct Named: Decodable, Sendable {
        let id: Int
        let name: String
    }

    static func run(baseURL: URL, output: @escaping @Sendable (String) -> Void) async -> Summary {
        let client = NetworkClient(configuration: .init(baseURL: baseURL))
        var summary = Summary()
        output("── Courier core: typed endpoints, one NetworkError ──")

        func step(_ title: String, expect: String, _ body: () async throws -> String) async {
            summary.steps += 1
            do {
                let result = try await body()
                let ok = expect == "success"
                if !ok { summary.failures += 1 }
                output("\(ok ? "✓" : "✗") \(title) → \(result)")
            } catch {
                let error = NetworkError(error)
                let ok = error.caseName == expect
                if !ok { summary.failures += 1 }
                output(
                    "\(ok ? "✓" : "✗") \(title) → \(error.log(file: "CoreDemo.swift", function: "run"))  «\(error.userMessage(in: .korean).replacingOccurrences(of: "\n", with: " "))»"
                )
            }
        }

        await step("GET /json decoded", expect: "success") {
            let story = try await client.request(SandboxAPI.sample, as: Story.self)
            return "story \(story.id) “\(story.title)” with \(story.kids.count) comments"
        }
        await step("Korean, +, &, emoji in path and query", expect: "success") {
            let echo = try await client.request(SandboxAPI.echo(query: "비트코인 +10% & 🚀"), as: Echo.self)
            return "server saw path \(echo.pathSegments.last ?? "") and q=\(echo.query.first { $0[0] == "q" }?[1] ?? "")"
        }
        await step("404 (standard mapping)", expect: "notFound") { try await client.response(SandboxAPI.status(404)).text ?? "" }
        await step("401 (standard mapping)", expect: "unauthorized") { try await client.response(SandboxAPI.status(401)).text ?? "" }
        await step("401 (seed/Alan mapping)", expect: "quotaExceeded") { try await client.response(SandboxAPI.seedStatus(401)).text ?? "" }
        await step("503", expect: "serviceUnavailable") { try await client.response(SandboxAPI.status(503)).text ?? "" }
        await step("JSON with a wrong type", expect: "decodingError") {
            let value = try await client.request(SandboxAPI.invalidJSON, as: Named.self)
            return value.name
        }
        await step("300 ms timeout on a slow answer", expect: "networkError") { try await client.response(SandboxAPI.slow(ms: 2000)).text ?? "" }
        await step("cancelled mid-request", expect: "taskCancelled") {
            let task = Task { () throws(NetworkError) -> String in try await client.response(SandboxAPI.slow(ms: 2000)).text ?? "" }
            try? await Task.sleep(for: .milliseconds(50))
            task.cancel()
            return try await task.value
        }
        summary.oneLine = "core \(summary.steps - summary.failures)/\(summary.steps) as expected"
        return summary
    }
}
