// Peak memory and time of a client facing a malicious server, over each transport.
//
// Usage: swift run -c release HostileBenchmark
//
// For each hostile route (a 4 GiB gzip bomb, an endless body, a declared 4 GiB Content-Length,
// a body dripping 2 bytes/s under a 3 s deadline) and each transport, the process's peak
// resident memory is reset (/proc/self/clear_refs) and read back (VmHWM) around one call: the
// growth is what the answer cost. Goal (issue 25): ≤ 64 MB growth each, the drip ended by 4 s.
// The sandbox runs in-process; it streams every hostile answer, so its share is small and
// counted in the growth (an upper bound for the client alone).
import Courier
import CourierAsyncHTTPClient
import CourierSandbox
import Foundation
import OpenAPIRuntime

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

struct Route: Endpoint {
    let baseURL: URL
    let path: String
    var query: [String: String] = [:]
    var timeout: Duration? = .seconds(60)
    var method: HTTPMethod { .get }
    var task: HTTPTask { query.isEmpty ? .requestPlain : .requestParameters(query, encoding: .url) }
}

/// A /proc/self/status field in kB.
func status(_ field: String) -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return -1 }
    for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? -1
    }
    return -1
}

/// Resets the peak resident size to the current one (Linux ≥ 4.0).
func resetPeak() {
    try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
}

let sandbox = try await SandboxServer.start()
let transports: [(String, any ClientTransport)] = [
    ("AsyncHTTPClient", HTTPClientTransport.shared),
    ("URLSession", URLSessionClientTransport(session: URLSession(configuration: .ephemeral))),
]
let routes: [(String, Route)] = [
    ("gzip bomb 4 GiB", Route(baseURL: sandbox.baseURL, path: "/hostile/gzip-bomb")),
    ("endless body", Route(baseURL: sandbox.baseURL, path: "/hostile/endless")),
    ("declared 4 GiB", Route(baseURL: sandbox.baseURL, path: "/hostile/declared")),
    ("drip 2 B/s, 3 s deadline", Route(baseURL: sandbox.baseURL, path: "/drip", query: ["bytes": "100", "intervalMs": "500"], timeout: .seconds(3))),
]

print("route                      transport         outcome                              growth MB  time s")
var worst = 0
for (transportName, transport) in transports {
    let client = NetworkClient(transport: transport)
    // One ordinary call first, so connection pools and lazily made sessions are not counted.
    _ = try? await client.response(Route(baseURL: sandbox.baseURL, path: "/bytes/1024"), validatingStatus: false)
    for (routeName, route) in routes {
        resetPeak()
        let before = status("VmRSS")
        let started = ContinuousClock.now
        let outcome: String
        do {
            let answer = try await client.response(route)
            outcome = "answer \(answer.statusCode), \(answer.body.count) bytes"
        } catch {
            outcome = "\(NetworkError(error))"
        }
        let seconds =
            Double((ContinuousClock.now - started).components.attoseconds) / 1e18
            + Double((ContinuousClock.now - started).components.seconds)
        let growth = max(0, status("VmHWM") - before) / 1024
        worst = max(worst, growth)
        let line = [
            routeName.padding(toLength: 26, withPad: " ", startingAt: 0),
            transportName.padding(toLength: 17, withPad: " ", startingAt: 0),
            String(outcome.prefix(36)).padding(toLength: 36, withPad: " ", startingAt: 0),
            String(format: "%9d", growth), String(format: "%7.2f", seconds),
        ]
        print(line.joined(separator: " "))
    }
}
print("worst growth: \(worst) MB (goal ≤ 64 MB)")
await sandbox.stop()
