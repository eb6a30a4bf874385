import Courier
import CourierAsyncHTTPClient
import CourierCache
import Foundation
import HTTPTypes
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime

/// A 64 MiB body through a disk cache: fetched (streamed to the caller and to a body file) and
/// served again from the file, with the process's peak memory (VmHWM) before and after each —
/// then, for contrast, the same body collected whole by a `NetworkClient`. Runs first: the peak
/// only grows.
enum LargeBodyBenchmark {
    static func run(baseURL: URL, directory: URL) async throws {
        let length = 64 << 20
        print("64 MiB body through a disk cache (swift-openapi-async-http-client's transport, which streams), peak memory growth")
        let storage = try DiskCacheStorage(directory: directory.appendingPathComponent("large"), maxBytes: 256 << 20)
        let cache = CacheMiddleware(storage: storage)
        let transport = AsyncHTTPClientTransport()
        let path = "/cache/bench-large?cc=max-age%3D600&bytes=\(length)"
        let start = peakKiB()
        print("  peak before          \(start / 1024) MiB")
        for phase in ["fetch, stored", "served from disk"] {
            let clock = ContinuousClock.now
            let (head, body) = try await cache.intercept(
                HTTPRequest(method: .get, scheme: nil, authority: nil, path: path), body: nil,
                baseURL: baseURL, operationID: "large"
            ) { request, body, url in
                try await transport.send(request, body: body, baseURL: url, operationID: "large")
            }
            var count = 0
            if let body { for try await chunk in body { count += chunk.count } }
            let elapsed = ContinuousClock.now - clock
            let served = head.headerFields[.age] != nil ? "from cache" : "from origin"
            print(
                "  \(phase.padding(toLength: 20, withPad: " ", startingAt: 0)) \(count == length ? "64 MiB" : "\(count) bytes (WRONG)") \(served) in \(Int(CacheBenchmark.seconds(elapsed) * 1000)) ms, peak growth \((peakKiB() - start) / 1024) MiB"
            )
        }
        let files = (try? FileManager.default.contentsOfDirectory(atPath: storage.directory.path)) ?? []
        print(
            "  store: \(files.filter { $0.hasSuffix(".entry") }.count) entry, \(files.filter { $0.hasSuffix(".body") }.count) body file, \(storage.bytes >> 20) MiB"
        )
        var configuration = NetworkClient.Configuration()
        configuration.maxResponseBytes = 128 << 20
        let whole = try await NetworkClient(configuration: configuration).response(
            Raw(baseURL: baseURL, path: "/cache/bench-large-plain", length: length))
        print("  for contrast: NetworkClient collecting it whole (\(whole.body.count >> 20) MiB), peak growth \((peakKiB() - start) / 1024) MiB\n")
    }

    /// The process's peak resident memory (VmHWM), in KiB.
    static func peakKiB() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        }
        return 0
    }

    /// `GET path?bytes=length` of the sandbox.
    struct Raw: Endpoint {
        let baseURL: URL
        let path: String
        let length: Int
        var method: HTTPMethod { .get }
        var task: HTTPTask { .requestParameters(["bytes": length], encoding: .url) }
    }
}
