import Courier
import CourierCache
import CourierSandbox
import Foundation
import HTTPTypes

/// The HTTP cache part of `courier demo`: a fresh hit, a 304 revalidation of a 1 MB body, and
/// offline first on an origin that has been stopped — each with its numbers.
enum CacheDemo {
    /// The sandbox's cache routes (`/cache/{key}` answers what the query asks for and counts).
    enum CacheAPI: Endpoint {
        case document(key: String, cacheControl: String)
        case large(key: String)
        case stats(key: String)

        var baseURL: URL { URL(string: "http://127.0.0.1:8080")! }
        var path: String {
            switch self {
            case .document(let key, _), .large(let key): "/cache/\(key)"
            case .stats(let key): "/cache/\(key)/stats"
            }
        }
        var method: HTTPMethod { .get }
        var task: HTTPTask {
            switch self {
            case .document(_, let cacheControl): .requestParameters(["cc": cacheControl, "json": 2048], encoding: .url)
            case .large: .requestParameters(["cc": "no-cache", "etag": "v1", "bytes": 1 << 20], encoding: .url)
            case .stats: .requestPlain
            }
        }
    }

    static func run(baseURL: URL, output: @escaping @Sendable (String) -> Void) async -> (steps: Int, failures: Int) {
        output("\n── HTTP cache (RFC 9111): fresh hit, 304 revalidation, offline first ──")
        var steps = 0
        var failures = 0
        func check(_ ok: Bool, _ line: String) {
            steps += 1
            if !ok { failures += 1 }
            output("\(ok ? "✓" : "✗") \(line)")
        }
        let key = "demo-\(UUID().uuidString.prefix(8))"
        let cached = NetworkClient(configuration: .init(baseURL: baseURL, middlewares: [CacheMiddleware(storage: MemoryCacheStorage())]))
        let plain = NetworkClient(configuration: .init(baseURL: baseURL))
        do {
            let (first, network) = try await timed { try await cached.response(CacheAPI.document(key: key, cacheControl: "max-age=60")) }
            let (second, hit) = try await timed { try await cached.response(CacheAPI.document(key: key, cacheControl: "max-age=60")) }
            let stats = try await plain.request(CacheAPI.stats(key: key), as: CacheStats.self)
            check(
                stats.hits == 1 && second.body == first.body && second.headers[.age] != nil,
                "max-age=60, \(first.body.count)-byte JSON read twice → 1 request; the hit took \(micro(hit)) vs \(micro(network)) on the network, Age: \(second.headers[.age] ?? "-")"
            )
        } catch {
            check(false, "fresh hit → \(describe(error))")
        }

        do {
            let big = "\(key)-big"
            let (first, full) = try await timed { try await cached.response(CacheAPI.large(key: big)) }
            let (second, revalidated) = try await timed { try await cached.response(CacheAPI.large(key: big)) }
            let stats = try await plain.request(CacheAPI.stats(key: big), as: CacheStats.self)
            check(
                stats.hits == 2 && stats.notModified == 1 && second.body == first.body,
                "no-cache + ETag, 1 MB → revalidated with If-None-Match: 304, body from the cache in \(micro(revalidated)) vs \(micro(full)) for the full fetch"
            )
        } catch {
            check(false, "304 revalidation → \(describe(error))")
        }

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-demo-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            let origin = try await SandboxServer.start()
            let storage = try DiskCacheStorage(directory: folder)
            let reader = NetworkClient(
                configuration: .init(baseURL: origin.baseURL, middlewares: [CacheMiddleware(storage: storage, defaultPolicy: .preferCache)]))
            let first = try await reader.response(CacheAPI.document(key: key, cacheControl: "max-age=0"))
            await origin.stop()
            let (stale, staleTime) = try await timed { try await reader.response(CacheAPI.document(key: key, cacheControl: "max-age=0")) }
            let offline = NetworkClient(
                configuration: .init(baseURL: origin.baseURL, middlewares: [CacheMiddleware(storage: storage, defaultPolicy: .offline)]))
            let (kept, keptTime) = try await timed { try await offline.response(CacheAPI.document(key: key, cacheControl: "max-age=0")) }
            let refused: Bool
            do {
                _ = try await NetworkClient(configuration: .init(baseURL: origin.baseURL)).response(
                    CacheAPI.document(key: key, cacheControl: "max-age=0"))
                refused = false
            } catch {
                refused = error.family == .transport
            }
            check(
                stale.body == first.body && kept.body == first.body && refused,
                "origin stopped (connection refused without a cache): .preferCache served the stale copy from disk in \(micro(staleTime)), .offline in \(micro(keptTime)) without trying the network"
            )
        } catch {
            check(false, "offline first → \(describe(error))")
        }
        return (steps, failures)
    }

    static func timed<T>(_ body: () async throws -> T) async throws -> (T, Duration) {
        let start = ContinuousClock.now
        let value = try await body()
        return (value, ContinuousClock.now - start)
    }

    static func describe(_ error: any Error) -> String {
        (error as? NetworkError)?.log() ?? String(describing: error)
    }

    static func micro(_ duration: Duration) -> String {
        let microseconds = Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
        return microseconds >= 1000 ? String(format: "%.1f ms", microseconds / 1000) : String(format: "%.0f µs", microseconds)
    }
}
