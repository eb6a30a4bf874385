import Courier
import CourierTransfers
import Foundation
import HTTPTypes
import Subprocess

#if canImport(System)
import System
#else
import SystemPackage
#endif

/// Sends each request through the `courier` command-line tool, one process per request, all of
/// them sharing one cache directory: `courier request -X METHOD URL --cache DIR --include
/// --no-location -H …`. What the process prints — the head as received (status line, fields,
/// CRLF, a blank line), then the body's bytes exactly — is parsed back into a response, so the
/// suite judges the cache through the CLI as it judges it in process.
struct CLIFetcher: Sendable {
    let courier: String
    let cacheDirectory: String
    /// Every process's wall time, process start included, and whether the answer was the cache's.
    let timings = Timings()

    func fetch(_ endpoint: ConformanceEndpoint) async throws -> NetworkResponse {
        var url = endpoint.baseURL.absoluteString + endpoint.path
        if !endpoint.queryText.isEmpty { url += "?" + endpoint.queryText }
        var arguments = [
            "request", "-X", endpoint.method.rawValue, url, "--cache", cacheDirectory, "--include", "--no-location", "--timeout", "10",
        ]
        for (name, value) in (endpoint.headers ?? [:]).sorted(by: { $0.key < $1.key }) { arguments += ["-H", "\(name): \(value)"] }
        if let body = endpoint.bodyText {
            arguments += ["--data", body]
            if !(endpoint.headers ?? [:]).keys.contains(where: { $0.lowercased() == "content-type" }) {
                arguments += ["-H", "Content-Type: text/plain;charset=UTF-8"]
            }
        }
        let start = ContinuousClock.now
        let result = try await run(.path(FilePath(courier)), arguments: Arguments(arguments), output: .bytes(limit: 16 << 20), error: .discarded)
        let elapsed = ContinuousClock.now - start
        let output = result.standardOutput
        guard let response = Self.parse(output, method: endpoint.method, path: endpoint.path) else {
            throw CLIFailure(message: "courier \(result.terminationStatus): no head in \(output.count) bytes of output")
        }
        await timings.record(elapsed, cached: response.headers[raw: "Age"] != nil)
        return response
    }

    /// The head (up to the first blank line) and the body after it.
    static func parse(_ output: [UInt8], method: HTTPRequest.Method, path: String) -> NetworkResponse? {
        let marker: [UInt8] = Array("\r\n\r\n".utf8)
        guard let end = output.indices.first(where: { output[$0...].starts(with: marker) }) else { return nil }
        let lines = String(decoding: output[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let status = lines[0].split(separator: " ", maxSplits: 2)
        guard status.count >= 2, status[0].hasPrefix("HTTP/"), let code = Int(status[1]) else { return nil }
        var fields = HTTPFields()
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":"), let name = HTTPField.Name(String(line[..<colon])) else { continue }
            fields.append(HTTPField(name: name, value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        let head = HTTPResponse(status: .init(code: code, reasonPhrase: status.count > 2 ? String(status[2]) : ""), headerFields: fields)
        let request = HTTPRequest(method: method, scheme: "http", authority: "127.0.0.1", path: path)
        return NetworkResponse(request: request, head: head, body: Data(output[(end + marker.count)...]))
    }

    struct CLIFailure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    /// Wall times of the processes, split by whether the cache answered.
    actor Timings {
        private(set) var cached: [Duration] = []
        private(set) var fetched: [Duration] = []

        func record(_ elapsed: Duration, cached isCached: Bool) {
            if isCached { cached.append(elapsed) } else { fetched.append(elapsed) }
        }

        /// "n, median, max" in milliseconds.
        func summary() -> String {
            func line(_ name: String, _ values: [Duration]) -> String {
                let sorted = values.sorted()
                guard let last = sorted.last else { return "\(name): none" }
                let ms = { (d: Duration) in Int(d / .milliseconds(1)) }
                return "\(name): \(sorted.count) processes, median \(ms(sorted[sorted.count / 2])) ms, max \(ms(last)) ms"
            }
            return line("answered by the cache (Age present)", cached) + "\n" + line("sent to the origin", fetched)
        }
    }
}
