import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdHTTP2
import HummingbirdTLS
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOSSL
import ServiceLifecycle
import UnixSignals

/// Courier's sandbox: a Hummingbird server with httpbin-style fault routes, probe routes for
/// concurrency tests, sample data, server-sent events (`/sse`), routes for retries (`/flaky`),
/// de-duplication (`/counted`), pacing (`/ratelimit`), hedging (`/tail`, a latency tail) and
/// circuit breakers (`/outage`, a window of 5xx), transfers (`/files` with ranges, validators,
/// pacing and cuts; the `/upload` sink; `/ndjson` streams), and (from the Accounts issue) the
/// seminar's User API.
///
/// Start it in-process on an ephemeral loopback port for tests and the demo:
/// ```swift
/// let sandbox = try await SandboxServer.start()
/// defer { Task { await sandbox.stop() } }
/// let url = sandbox.baseURL   // http://127.0.0.1:PORT
/// ```
///
/// Requests must name the sandbox in `Host` (127.0.0.1, localhost or [::1], with its port or
/// none; more names in ``Options/extraHostNames``): any other name is answered 421.
public struct SandboxServer: Sendable {
    /// What the sandbox serves and where.
    public struct Options: Sendable {
        /// Interface to bind (loopback by default). Unless it is a wildcard (`0.0.0.0`, `::`), it is
        /// also a name the sandbox answers to in `Host`.
        public var host: String = "127.0.0.1"
        /// Port; 0 picks a free one.
        public var port: Int = 0
        /// Where persistent data (the accounts database) lives; nil keeps it in memory (nothing left behind).
        public var dataDirectory: URL?
        /// Log each request (method, path without query, status, time) at `.info`.
        public var logRequests: Bool = false
        /// Event loops the server runs on; nil shares SwiftNIO's process-wide ones (which
        /// in-process clients use too). Give it its own to keep a benchmark's client and server
        /// off each other's threads, as with a remote server.
        public var eventLoopGroup: (any EventLoopGroup)?
        /// Names the sandbox answers to in a request's `Host` besides 127.0.0.1, localhost, [::1]
        /// and ``host`` (`courier serve --host-name`): host names or addresses without a port —
        /// the port must always be the sandbox's. A request for any other name is refused with
        /// 421, so a web page cannot reach the sandbox through DNS rebinding.
        ///
        /// ```swift
        /// var options = SandboxServer.Options()
        /// options.host = "0.0.0.0"
        /// options.extraHostNames = ["devbox.local"]   // http://devbox.local:PORT works
        /// ```
        public var extraHostNames: [String] = []
        /// HTTPS instead of plain HTTP (for tests of TLS and HTTP/2; the WebSocket routes only
        /// without HTTP/2, as `wss://`).
        public var tls: TLS?

        /// Defaults: loopback, ephemeral port, temporary data, quiet.
        public init() {}
    }

    /// The sandbox's HTTPS: its certificate, and what it asks of clients.
    public struct TLS: Sendable {
        /// The server's certificate chain, PEM (leaf first).
        public var certificateChainPEM: String
        /// The server's private key, PEM.
        public var privateKeyPEM: String
        /// When set, a client certificate issued by one of these (PEM) is required (mTLS).
        public var clientCertificateRootsPEM: String?
        /// Offer HTTP/2 by ALPN (with HTTP/1.1 for clients that do not ask for it); false: HTTP/1.1 only.
        public var http2: Bool
        /// Speak at most TLS 1.2 (to test a client's minimum version).
        public var maximumTLS12: Bool

        /// HTTPS with `certificateChainPEM` and `privateKeyPEM`.
        public init(
            certificateChainPEM: String, privateKeyPEM: String, clientCertificateRootsPEM: String? = nil, http2: Bool = true,
            maximumTLS12: Bool = false
        ) {
            self.certificateChainPEM = certificateChainPEM
            self.privateKeyPEM = privateKeyPEM
            self.clientCertificateRootsPEM = clientCertificateRootsPEM
            self.http2 = http2
            self.maximumTLS12 = maximumTLS12
        }

        /// swift-nio-ssl's server configuration for these settings.
        func configuration() throws -> TLSConfiguration {
            let chain = try NIOSSLCertificate.fromPEMBytes(Array(certificateChainPEM.utf8)).map { NIOSSLCertificateSource.certificate($0) }
            let key = try NIOSSLPrivateKey(bytes: Array(privateKeyPEM.utf8), format: .pem)
            var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key))
            if let roots = clientCertificateRootsPEM {
                configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(roots.utf8)))
                configuration.certificateVerification = .noHostnameVerification
            }
            if maximumTLS12 { configuration.maximumTLSVersion = .tlsv12 }
            return configuration
        }
    }

    let options: Options
    let logger: Logger
    let probe = ProbeCounter()
    let ticker = TickerHub()
    let alan: AlanLedger

    /// A server with `options`; nothing runs until ``start(options:logger:)`` or ``run(options:logger:)``.
    init(options: Options, logger: Logger, alan: AlanLedger = AlanLedger()) {
        self.options = options
        self.logger = logger
        self.alan = alan
    }

    /// The names requests may give in `Host`.
    var hostNames: SandboxHostNames { SandboxHostNames(boundHost: options.host, extra: options.extraHostNames) }

    func makeRouter() async throws -> Router<SandboxRequestContext> {
        let router = Router(context: SandboxRequestContext.self)
        if options.logRequests { router.add(middleware: RequestLogMiddleware(logger: logger)) }
        // Before every route (a router's middleware covers only routes added after it).
        router.add(middleware: HostCheckMiddleware(names: hostNames))
        EchoRoutes().register(on: router)
        FaultRoutes().register(on: router)
        CookieRoutes().register(on: router)
        HostileRoutes().register(on: router)
        ProbeRoutes(counter: probe).register(on: router)
        SampleRoutes().register(on: router)
        SSERoutes().register(on: router)
        FlakyRoutes().register(on: router)
        IdempotentRoutes().register(on: router)
        CountedRoutes().register(on: router)
        RateLimitRoutes().register(on: router)
        TailRoutes().register(on: router)
        OutageRoutes().register(on: router)
        TransferRoutes().register(on: router)
        TickerRoutes(hub: ticker).register(on: router)
        for extensionRoutes in await SandboxExtensions.registered(options: options, logger: logger, alan: alan) {
            try await extensionRoutes.register(on: router)
        }
        return router
    }

    /// Starts the sandbox in the background and returns once it listens.
    public static func start(options: Options = Options(), logger: Logger = Logger(label: "courier.sandbox")) async throws -> RunningSandbox {
        let (portStream, portContinuation) = AsyncStream<Int>.makeStream()
        let connections = ConnectionRegistry()
        let alan = AlanLedger()
        let app = try await makeApplication(options: options, logger: logger, connections: connections, alan: alan) { port in
            portContinuation.yield(port ?? 0)
            portContinuation.finish()
        }
        let group = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: quiet(logger)))
        let task = Task { try await group.run() }
        var port = 0
        for await bound in portStream { port = bound }
        guard port > 0 else {
            await group.triggerGracefulShutdown()
            _ = await task.result
            throw SandboxError.couldNotStart(host: options.host, port: options.port)
        }
        return RunningSandbox(
            host: options.host, port: port, group: group, task: task, connections: connections, alan: AlanSandboxControl(ledger: alan),
            secure: options.tls != nil)
    }

    /// Starts the sandbox, runs `body` against it, and stops it whether `body` returns or throws.
    ///
    /// ```swift
    /// let story = try await SandboxServer.withRunning { sandbox in
    ///     try await client.request(StoryAPI.sample(sandbox.baseURL), as: Story.self)
    /// }
    /// ```
    public static func withRunning<T>(
        options: Options = Options(),
        logger: Logger = Logger(label: "courier.sandbox"),
        _ body: (RunningSandbox) async throws -> T
    ) async throws -> T {
        let sandbox = try await start(options: options, logger: logger)
        do {
            let result = try await body(sandbox)
            await sandbox.stop()
            return result
        } catch {
            await sandbox.stop()
            throw error
        }
    }

    /// Runs the sandbox in the foreground until SIGINT or SIGTERM, then stops it as
    /// ``RunningSandbox/stop(grace:)`` does: requests in flight get 5 s, then every connection
    /// still open is closed (a browser's spare connection would otherwise hold the stop).
    public static func run(
        options: Options, logger: Logger = Logger(label: "courier.sandbox"), onListening: @escaping @Sendable (Int) -> Void = { _ in }
    ) async throws {
        let signals = await UnixSignalsSequence(trapping: .sigint, .sigterm)
        let sandbox = try await start(options: options, logger: logger)
        onListening(sandbox.port)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { for await _ in signals { return } }
            group.addTask { _ = await sandbox.task.result }  // the server failed on its own
            await group.next()
            await sandbox.stop()
            group.cancelAll()  // the signals' wait
        }
        if case .failure(let error) = await sandbox.task.result { throw error }
    }

    /// The Hummingbird application for `options`; `connections` hears of each connection it
    /// accepts, `onListening` gets the bound port (nil if unknown).
    private static func makeApplication(
        options: Options,
        logger: Logger,
        connections: ConnectionRegistry,
        alan: AlanLedger,
        onListening: @escaping @Sendable (Int?) -> Void
    ) async throws -> Application<RouterResponder<SandboxRequestContext>> {
        let sandbox = SandboxServer(options: options, logger: logger, alan: alan)
        let router = try await sandbox.makeRouter()
        let webSocketRouter = Router(context: TickerRequestContext.self)
        // Upgrades too: the page's script could open a WebSocket. A declined upgrade is answered 400.
        webSocketRouter.add(middleware: HostCheckMiddleware(names: sandbox.hostNames))
        TickerRoutes(hub: sandbox.ticker).registerWebSocket(on: webSocketRouter)
        let http1: HTTPServerBuilder = .http1WebSocketUpgrade(
            webSocketRouter: webSocketRouter, configuration: .init(ws: .init(maxFrameSize: 16 << 20, autoPing: .disabled)))
        let server: HTTPServerBuilder
        if let tls = options.tls {
            let configuration = try tls.configuration()
            server = tls.http2 ? try .http2Upgrade(tlsConfiguration: configuration) : try .tls(http1, tlsConfiguration: configuration)
        } else {
            server = http1
        }
        return Application(
            router: router,
            server: server,
            configuration: .init(address: .hostname(options.host, port: options.port), serverName: "courier-sandbox"),
            onServerRunning: { channel in
                await connections.watch(server: channel)
                onListening(channel.localAddress?.port)
            },
            eventLoopGroupProvider: options.eventLoopGroup.map { .shared($0) } ?? .singleton,
            logger: quiet(logger)
        )
    }

    /// Hummingbird's own per-request logs stay at `.warning` unless the caller asked for more.
    private static func quiet(_ logger: Logger) -> Logger {
        var copy = logger
        if copy.logLevel < .warning { copy.logLevel = .warning }
        return copy
    }
}

/// A sandbox running in the background.
public struct RunningSandbox: Sendable {
    /// The host it listens on.
    public let host: String
    /// The port it listens on.
    public let port: Int
    let group: ServiceGroup
    let task: Task<Void, any Error>
    let connections: ConnectionRegistry
    /// The Alan stand-in's settings and counters, in process.
    public let alan: AlanSandboxControl
    /// Serves HTTPS (``SandboxServer/Options/tls``).
    var secure = false

    /// `http://host:port` (`https://` with ``SandboxServer/Options/tls``).
    public var baseURL: URL {
        // Both parts are validated when the server binds; the format is always a valid URL.
        URL(string: "\(secure ? "https" : "http")://\(host):\(port)") ?? URL(fileURLWithPath: "/")
    }

    /// Connections the server has accepted since it started (HTTP/2 multiplexes many calls on one).
    public var acceptedConnections: Int { connections.accepted }

    /// Stops the server and waits until it has shut down: gracefully (requests in flight may
    /// finish), but for at most `grace`; then every connection still open is closed and the
    /// server cancelled, so a request that cannot finish — a body the client stopped reading
    /// without closing the connection — or a connection a client keeps idle in its pool does not
    /// hold the stop.
    public func stop(grace: Duration = .seconds(5)) async {
        await group.triggerGracefulShutdown()
        let (task, connections) = (self.task, self.connections)
        let deadline = Task {
            try await Task.sleep(for: grace)
            connections.closeAll()
            task.cancel()
        }
        _ = await task.result
        deadline.cancel()
        // Whatever the server left open when it ended goes too: a stopped sandbox holds no connection.
        connections.closeAll()
    }
}

/// Why the sandbox could not start.
public enum SandboxError: Error, CustomStringConvertible {
    /// Binding failed (port in use, bad host).
    case couldNotStart(host: String, port: Int)

    public var description: String {
        switch self {
        case .couldNotStart(let host, let port): "The sandbox could not listen on \(host):\(port) (is the port in use?)."
        }
    }
}
