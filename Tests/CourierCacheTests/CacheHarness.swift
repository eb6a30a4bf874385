import Courier
import CourierCache
import CourierSandbox
import Foundation
import IntegrationTestSupport
import Synchronization

/// A wall clock a test moves by hand: the cache's notion of now.
final class ManualDate: Sendable {
    private let offset = Mutex<TimeInterval>(0)

    /// Real time plus what ``advance(_:)`` added (so the origin's `Date` stays consistent).
    var now: Date { Date().addingTimeInterval(offset.withLock { $0 }) }

    func advance(_ seconds: TimeInterval) { offset.withLock { $0 += seconds } }
}

/// The stores every cache socket test runs over.
enum StoreKind: String, CaseIterable, CustomStringConvertible, Sendable {
    case memory
    case disk

    var description: String { rawValue }

    func make() -> any CacheStorage {
        switch self {
        case .memory: MemoryCacheStorage(maxBytes: 4 << 20)
        // A fresh directory per test (under the system's temporary directory).
        case .disk: try! DiskCacheStorage(directory: temporaryCacheDirectory(), maxBytes: 4 << 20)
        }
    }
}

/// A new empty directory for a disk cache.
func temporaryCacheDirectory() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("courier-cache-\(UUID().uuidString)")
}

/// A sandbox (in memory or over a socket), a cache over `kind` with a hand-moved clock, and a
/// client through it.
struct CacheRig {
    let sandbox: SandboxLane
    let clock: ManualDate
    let cache: CacheMiddleware
    let client: NetworkClient
    let key = "c-\(UUID().uuidString.prefix(8))"

    init(_ sandbox: SandboxLane, _ kind: StoreKind, storage: (any CacheStorage)? = nil) {
        self.sandbox = sandbox
        let clock = ManualDate()
        self.clock = clock
        self.cache = CacheMiddleware(storage: storage ?? kind.make(), clock: { clock.now })
        self.client = NetworkClient(configuration: .init(transport: sandbox.transport, middlewares: [cache]))
    }

    /// Over a socket, to a running sandbox.
    init(_ sandbox: RunningSandbox, _ kind: StoreKind, storage: (any CacheStorage)? = nil) {
        self.init(SandboxLane(baseURL: sandbox.baseURL, transport: TransportKind.asyncHTTPClient.make()), kind, storage: storage)
    }

    /// `GET /cache/{key}` with `query` and request `headers`.
    func endpoint(
        _ query: RequestParameters = [:], method: HTTPMethod = .get, headers: [String: String]? = nil,
        policy: CachePolicy = .standard, path: String? = nil
    ) -> TestEndpoint {
        TestEndpoint(
            baseURL: sandbox.baseURL, path: path ?? "/cache/\(key)", method: method,
            task: query.isEmpty ? .requestPlain : .requestParameters(query, encoding: .url),
            headers: headers, statusMapping: .acceptAll, traits: CallTraits(cachePolicy: policy))
    }

    /// Sends `endpoint` through the cache.
    func send(_ endpoint: TestEndpoint) async throws -> NetworkResponse { try await client.response(endpoint, validatingStatus: false) }

    /// How many requests for the key reached the sandbox.
    func stats(_ key: String? = nil) async throws -> CacheStats {
        try await NetworkClient(transport: sandbox.transport).request(
            TestEndpoint(baseURL: sandbox.baseURL, path: "/cache/\(key ?? self.key)/stats"), as: CacheStats.self)
    }
}

/// The sandbox's JSON answer.
struct CacheAnswer: Decodable, Equatable {
    var key: String
    var hit: Int
    var variant: String?
}

extension NetworkResponse {
    /// The served `Age`, as a number.
    var age: Int? { headers[.age].flatMap { Int($0) } }
    /// The sandbox's answer in the body.
    var answer: CacheAnswer? { try? JSONDecoder().decode(CacheAnswer.self, from: body) }
}
