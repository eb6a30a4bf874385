import Courier
import CourierAsyncHTTPClient
import CourierSandbox
import Foundation
import HTTPTypes
import OpenAPIRuntime

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The transports every integration test can run over: `@Test(arguments: TransportKind.allCases)`
/// (the two socket transports); a test of Courier's own logic — middlewares, status mapping,
/// encoding, decoding — runs in memory too: `@Test(arguments: TransportKind.lanes)` with
/// ``withSandbox(lane:_:)``.
public enum TransportKind: String, CaseIterable, CustomStringConvertible, Sendable {
    case asyncHTTPClient
    case urlSession
    /// No socket: the sandbox's router answers in this process (``InMemorySandboxTransport``).
    case inMemory

    /// The socket transports.
    public static var allCases: [TransportKind] { [.asyncHTTPClient, .urlSession] }
    /// The socket transports and the in-memory lane.
    public static var lanes: [TransportKind] { allCases + [.inMemory] }

    public var description: String { rawValue }

    /// A socket transport of this kind (the shared AHC one, or a new ephemeral URLSession);
    /// the in-memory lane needs its sandbox: ``withSandbox(lane:_:)``.
    public func make() -> any ClientTransport {
        switch self {
        case .asyncHTTPClient: HTTPClientTransport.shared
        case .urlSession: URLSessionClientTransport(session: URLSession(configuration: .ephemeral))
        case .inMemory: preconditionFailure("the in-memory lane answers from its own sandbox: use withSandbox(lane: .inMemory)")
        }
    }
}

/// A fresh sandbox reached one way: its base URL and a transport to it.
public struct SandboxLane: Sendable {
    /// Where the sandbox is (in memory: a loopback address nothing listens on; the transport
    /// never dials it).
    public let baseURL: URL
    /// Over a socket, or straight into the sandbox's router.
    public let transport: any ClientTransport

    /// A lane to `baseURL` over `transport`.
    public init(baseURL: URL, transport: any ClientTransport) {
        self.baseURL = baseURL
        self.transport = transport
    }
}

/// Runs `body` against a fresh sandbox over `kind` — a socket transport to a running sandbox, or
/// (``TransportKind/inMemory``) the sandbox's router in this process, as Hummingbird's
/// `app.test(.router)` runs a test body without a socket — and stops it afterwards.
public func withSandbox<T>(lane kind: TransportKind, _ body: (SandboxLane) async throws -> T) async throws -> T {
    guard kind == .inMemory else {
        return try await SandboxServer.withRunning { try await body(SandboxLane(baseURL: $0.baseURL, transport: kind.make())) }
    }
    let sandbox = try await InMemorySandbox.start()
    do {
        let result = try await body(SandboxLane(baseURL: URL(string: "http://127.0.0.1:9")!, transport: InMemorySandboxTransport(sandbox: sandbox)))
        await sandbox.stop()
        return result
    } catch {
        await sandbox.stop()
        throw error
    }
}

/// Runs `body` against a fresh sandbox (its own counters) on an ephemeral loopback port, and
/// stops it afterwards, whether `body` returns or throws.
public func withSandbox<T>(_ body: (RunningSandbox) async throws -> T) async throws -> T {
    try await SandboxServer.withRunning(body)
}

/// Runs `body` against a fresh sandbox with a client over `kind` — the same test body for either
/// transport (the shape of Hummingbird's `Application.test(_:)`).
public func withSandbox<T>(over kind: TransportKind = .asyncHTTPClient, _ body: (RunningSandbox, NetworkClient) async throws -> T) async throws -> T {
    try await SandboxServer.withRunning { try await body($0, NetworkClient(transport: kind.make())) }
}

/// The one endpoint tests need: any path, method and task against a base URL.
public struct TestEndpoint: Endpoint {
    public var baseURL: URL
    public var path: String
    public var method: HTTPMethod
    public var task: HTTPTask
    public var headers: [String: String]?
    public var statusMapping: StatusMapping
    public var timeout: Duration?
    public var secrets: [String]
    /// Path segments given as such (a segment may then contain `/`); nil splits ``path``.
    public var segments: [String]?
    public var decoding: any ResponseDecoding
    public var traits: CallTraits

    /// An endpoint; everything but the base URL and the path has the protocol's default.
    public init(
        baseURL: URL, path: String, method: HTTPMethod = .get, task: HTTPTask = .requestPlain, headers: [String: String]? = nil,
        statusMapping: StatusMapping = .standard, timeout: Duration? = nil, secrets: [String] = [], segments: [String]? = nil,
        decoding: any ResponseDecoding = .json, traits: CallTraits = CallTraits()
    ) {
        self.baseURL = baseURL
        self.path = path
        self.method = method
        self.task = task
        self.headers = headers
        self.statusMapping = statusMapping
        self.timeout = timeout
        self.secrets = secrets
        self.segments = segments
        self.decoding = decoding
        self.traits = traits
    }

    /// A GET of `path` with `query` (percent-encoded).
    public init(_ baseURL: URL, _ path: String, query: RequestParameters = [:]) {
        self.init(baseURL: baseURL, path: path, task: query.isEmpty ? .requestPlain : .requestParameters(query, encoding: .url))
    }

    public var pathSegments: [String] { segments ?? path.split(separator: "/").map(String.init) }
    public var responseDecoding: any ResponseDecoding { decoding }
}

/// What `/echo` answers.
public typealias Echo = EchoAnswer

/// `/probe/delay/{ms}`'s answer.
public struct Delayed: Decodable, Sendable, Equatable {
    public var delayedMs: Int

    public init(delayedMs: Int) { self.delayedMs = delayedMs }
}

extension RunningSandbox {
    /// A GET of `path` on this sandbox.
    public func get(_ path: String, query: RequestParameters = [:]) -> TestEndpoint { TestEndpoint(baseURL, path, query: query) }

    /// `/probe/delay/{ms}`.
    public func delay(_ ms: Int) -> TestEndpoint { get("/probe/delay/\(ms)") }

    /// `/items` with paging parameters.
    public func items(total: Int, offset: Int, limit: Int, delayMs: Int = 0) -> TestEndpoint {
        get("/items", query: ["total": total, "offset": offset, "limit": limit, "delayMs": delayMs])
    }

    /// The probe counters.
    public func stats(_ client: NetworkClient) async throws -> ProbeStats {
        try await client.request(get("/probe/stats"), as: ProbeStats.self)
    }
}

/// A middleware that changes nothing: makes a client take the streamed-body path.
public struct PassThroughMiddleware: ClientMiddleware {
    public init() {}

    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        try await next(request, body, baseURL)
    }
}
