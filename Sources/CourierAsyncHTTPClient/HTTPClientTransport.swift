public import AsyncHTTPClient
import CourierTLS
public import CourierTransportCore
public import Foundation
public import HTTPTypes
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import NIOHTTPCompression
public import OpenAPIRuntime
import Synchronization
import Tracing

/// Courier's thin `ClientTransport` over AsyncHTTPClient — the Linux default.
///
/// AsyncHTTPClient speaks HTTP; this type only converts between swift-http-types and AHC
/// (measured faster than the stock swift-openapi-async-http-client transport: see the
/// benchmark). It honours `CallContext.deadline` for the whole call, body included, and
/// `CallContext.maxResponseBytes` while receiving (a body over the limit is never buffered whole).
///
/// Errors leave as the `URLError` codes URLSession would use, a body over
/// the limit as `ResponseTooLargeError`, cancellation as `URLError(.cancelled)`.
///
/// The client is configured deliberately (see ``Settings``): a short connect timeout and no
/// retrying a refused connection until that timeout, a pool sized for fan-out, no redirects
/// followed (the client follows them, hop by hop), and bounded decompression.
public final class HTTPClientTransport: CallTransport, Sendable {
    /// How the underlying `HTTPClient` is set up.
    public struct Settings: Sendable {
        /// Time allowed to establish a connection (a refused one fails at once).
        public var connectTimeout: Duration = .seconds(3)
        /// Time allowed between bytes once connected; `nil` (the default) sets none: the call's
        /// deadline (the endpoint's timeout or ``defaultTimeout``) already bounds a stalled body,
        /// without AsyncHTTPClient re-arming an idle timer on every read (measured: about 2% of
        /// CPU at 32 requests in flight).
        public var readTimeout: Duration?
        /// Connections kept per host; fan-out of this many runs without queueing.
        public var connectionsPerHost: Int = 64
        /// A gzip/deflate body may expand at most this many times its compressed size.
        public var maxDecompressionRatio: Int = CallLimits.defaultMaxDecompressionRatio
        /// Deadline used when no `CallContext` sets one.
        public var defaultTimeout: Duration = CallLimits.defaultTimeout
        /// The proxies requests go through (nil: every request direct). A client per proxy is
        /// made on first use. An HTTP proxy is reached with `CONNECT` for `http` URLs as well
        /// (AsyncHTTPClient tunnels every URL), so a proxy that allows `CONNECT` only to port 443
        /// refuses plain-`http` calls; SOCKS5 without authentication only.
        public var proxy: ProxyRules?
        /// Trust roots, pins, a client certificate, a minimum version (`TLSSettings`, from CourierTransportCore) — for
        /// every call, stream and proxied connection. Settings that cannot be used (bad PEM, a
        /// malformed pin) fail closed: every `https` call fails as untrusted; check them up front
        /// with ``HTTPClientTransport/init(validating:)``.
        public var tls = TLSSettings()
        /// HTTP/2 when the server offers it by ALPN (the default), or HTTP/1.1 only.
        public var http2 = true
        /// Host names dialled at these addresses instead of what the resolver answers (curl's
        /// `--resolve`): `["api.example.com": "10.0.0.7"]`. The URL keeps the name, so the `Host`
        /// field, the TLS server name and the certificate check use the name (swift-nio-ssl also
        /// accepts a certificate that names the dialled address as an IP SAN). AsyncHTTPClient
        /// maps names, not name and port: an entry applies to every port of its host. Through a
        /// proxy, the proxy is asked for the address (`CONNECT 10.0.0.7:443`).
        public var resolve: [String: String] = [:]

        /// The defaults above.
        public init() {}
    }

    /// A process-wide transport with default ``Settings`` (never shut down, like `HTTPClient.shared`).
    public static let shared = HTTPClientTransport(settings: Settings(), owned: false)

    /// The AsyncHTTPClient in use.
    public let client: HTTPClient
    private let owned: Bool
    private let defaultTimeout: Duration
    private let affinity: LoopAffinity
    private let sweeper = DeadlineSweeper()
    /// Which connection each recorded exchange went out on (its clients' connections, numbered from 1).
    private let connections: ConnectionUse
    /// The settings the client was made with (nil for a client given to ``init(client:defaultTimeout:)``).
    private let settings: Settings?
    /// Clients for streamed bodies, by idle timeout.
    private let streamingClients = Mutex<[Duration?: HTTPClient]>([:])
    /// Clients through a proxy: by proxy, and for streams by idle timeout.
    private let proxiedClients = Mutex<[ProxiedClientKey: HTTPClient]>([:])

    private struct ProxiedClientKey: Hashable {
        let proxy: HTTPProxy
        /// nil for buffered calls; for streams, their idle timeout (`.some(nil)`: none).
        let stream: Duration??
    }

    /// A transport with its own `HTTPClient`; call ``shutdown()`` when done with it.
    public convenience init(settings: Settings = Settings()) {
        self.init(settings: settings, owned: true)
    }

    /// A transport with its own `HTTPClient`, its TLS settings checked first.
    public convenience init(validating settings: Settings) throws(TLSSettingsError) {
        if !settings.tls.isDefault {
            _ = try TLSSetup.configuration(settings.tls)
            _ = try settings.tls.pinnedDigests()
        }
        self.init(settings: settings, owned: true)
    }

    /// A transport over an `HTTPClient` you own and shut down yourself. Its tracing is yours too:
    /// when the `NetworkClient` traces, make the client with `configuration.tracing.tracer = nil`,
    /// or each exchange is traced and its headers injected twice.
    public init(client: HTTPClient, defaultTimeout: Duration = CallLimits.defaultTimeout) {
        self.client = client
        self.connections = ConnectionUse()
        self.owned = false
        self.defaultTimeout = defaultTimeout
        self.affinity = LoopAffinity(group: client.eventLoopGroup)
        self.settings = nil
    }

    private init(settings: Settings, owned: Bool) {
        let connections = ConnectionUse()
        self.connections = connections
        self.client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: Self.configuration(settings, connections))
        self.owned = owned
        self.defaultTimeout = settings.defaultTimeout
        self.affinity = LoopAffinity(group: client.eventLoopGroup)
        self.settings = settings
    }

    /// AsyncHTTPClient's configuration for `settings`.
    private static func configuration(_ settings: Settings, _ connections: ConnectionUse) -> HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration()
        configuration.timeout = .init(connect: .init(settings.connectTimeout), read: settings.readTimeout.map(TimeAmount.init))
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: settings.connectionsPerHost)
        configuration.connectionPool.retryConnectionEstablishment = false
        // Transports never follow redirects: NetworkClient follows each hop itself, through the
        // middlewares, with the rules for credentials and schemes (CallPipeline, RedirectHop).
        configuration.redirectConfiguration = .disallow
        configuration.decompression = .enabled(limit: .ratio(settings.maxDecompressionRatio))
        configuration.httpVersion = settings.http2 ? .automatic : .http1Only
        configuration.dnsOverride = Dictionary(settings.resolve.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        if !settings.tls.isDefault {
            configuration.tlsConfiguration = (try? TLSSetup.configuration(settings.tls)) ?? TLSSetup.trustingNothing
            if !settings.tls.pins.isEmpty {
                // A malformed pin matches nothing: fail closed.
                let check = TLSSetup.pinCheck((try? settings.tls.pinnedDigests()) ?? [])
                configuration.http1_1ConnectionDebugInitializer = check
                configuration.http2ConnectionDebugInitializer = check
            }
        }
        // AsyncHTTPClient opens a span per request and injects the tracer's headers, with the tracer
        // bootstrapped when the client is made (`NoOpTracer` when none is, which still costs a span's
        // setup: about 3% of CPU at 32 in flight, measured with perf). Under Courier the client
        // traces (`TracingOptions`: a span per call and per exchange, W3C `traceparent` on each), so
        // AsyncHTTPClient's tracing is always off: nothing traced or injected twice.
        configuration.tracing.tracer = nil
        // New or reused connection, told to each recorded exchange's timeline.
        connections.install(&configuration)
        return configuration
    }

    /// Shuts the owned client down (waits for requests in flight to finish or fail).
    public func shutdown() async throws {
        guard owned else { return }
        for client in streamingClients.withLock({ Array($0.values) }) + proxiedClients.withLock({ Array($0.values) }) {
            try await client.shutdown()
        }
        try await client.shutdown()
    }

    deinit {
        guard owned else { return }
        let clients = [client] + streamingClients.withLock { Array($0.values) } + proxiedClients.withLock { Array($0.values) }
        // A transport dropped without `shutdown()` must not leak its event loop resources.
        Task { for client in clients { try? await client.shutdown() } }
    }

    public func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        try await send(request, body: body, baseURL: baseURL, context: CallContext.current ?? CallContext())
    }

    package func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, context: CallContext) async throws -> (HTTPResponse, HTTPBody?) {
        do {
            if context.streamsResponse {
                return try await stream(request, body: body, baseURL: baseURL, context: context)
            }
            let (head, buffer) = try await exchange(request, body: body, baseURL: baseURL, context: context)
            guard let buffer, buffer.readableBytes > 0 else { return (head, nil) }
            return (head, HTTPBody(ArraySlice(buffer.readableBytesView)))
        } catch {
            throw Self.converted(error)
        }
    }

    package func sendBuffered(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, context: CallContext) async throws -> (HTTPResponse, Data) {
        do {
            let (head, buffer) = try await exchange(request, body: body, baseURL: baseURL, context: context)
            guard let buffer, buffer.readableBytes > 0 else { return (head, Data()) }
            return (head, buffer.getData(at: buffer.readerIndex, length: buffer.readableBytes, byteTransferStrategy: .automatic) ?? Data())
        } catch {
            throw Self.converted(error)
        }
    }

    /// A SwiftNIO / AsyncHTTPClient error as its `URLError`; other errors as they are.
    private static func converted(_ error: any Error) -> any Error {
        NIOErrorMapping.urlError(for: error) ?? error
    }

    /// One request through AsyncHTTPClient, the whole body accumulated within the context's limit.
    private func exchange(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, context: CallContext) async throws -> (HTTPResponse, ByteBuffer?) {
        let built = try await Self.outgoing(request, body: body, url: Self.url(request, baseURL, context), group: client.eventLoopGroup)
        let outgoing = built
        let exchange = registerConnection(context, method: outgoing.method.rawValue, url: outgoing.url.absoluteString, headers: outgoing.headers)
        defer { if let exchange { connections.finish(exchange) } }
        let limit = min(context.maxResponseBytes ?? Int(UInt32.max), Int(UInt32.max))
        let deadline = context.deadline ?? (ContinuousClock.now + defaultTimeout)
        let lease = affinity.acquire(fallback: client.eventLoopGroup.any())
        defer { affinity.release(lease) }
        let loop = lease.loop
        let client = proxiedClient(for: outgoing.url.absoluteString, stream: nil) ?? self.client
        let sweeper = self.sweeper
        let handle = RunningRequest()
        // The request is started *on* its event loop: AHC then needs no hop to reach a connection
        // on that loop, and the completion is observed on the loop (`EventLoopFuture.get()` from
        // elsewhere would cost another cross-thread hop). One hop there, one resumption back.
        // The deadline (whole call, body included) is the sweeper's: no per-request timer.
        let response: HTTPClient.Response
        do {
            response = try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPClient.Response, any Error>) in
                    loop.execute {
                        let task = client.execute(
                            request: outgoing,
                            delegate: ResponseAccumulator(request: outgoing, maxBodySize: limit),
                            eventLoop: .indifferent,  // on `loop`, so AHC picks `loop`
                            logger: nil
                        )
                        let watch = sweeper.add(task, deadline: deadline)
                        task.futureResult.whenComplete { result in
                            sweeper.remove(watch)
                            continuation.resume(with: result)
                        }
                        handle.started(task)
                    }
                }
            } onCancel: {
                handle.cancel()
            }
        } catch is ResponseAccumulator.ResponseTooBigError {
            throw ResponseTooLargeError(limit: limit)
        }
        return (Self.head(response.status, response.headers), response.body)
    }

    /// One request whose body is handed back as it arrives (`CallContext.streamsResponse`):
    /// AsyncHTTPClient's async API, the deadline bounding the wait for the head.
    ///
    /// `CallContext.idleTimeout` is AsyncHTTPClient's own read timeout, on a client kept for
    /// streams with that timeout (its own pool; streams are long-lived and should not hold the
    /// pool that short calls use). Measured: the async API costs a third of the CPU per body part
    /// of the delegate API, and a watchdog task in front of the reader costs a second hand-over
    /// per network read — 0.73× raw AsyncHTTPClient in events per CPU-second. Cancelling the
    /// task that reads the body, or dropping the body, cancels the request and closes its connection.
    private func stream(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, context: CallContext) async throws -> (HTTPResponse, HTTPBody?) {
        var outgoing = HTTPClientRequest(url: Self.url(request, baseURL, context))
        outgoing.method = .init(rawValue: request.method.rawValue)
        for field in request.headerFields {
            outgoing.headers.add(name: field.name.rawName, value: field.value)
        }
        let exchange = registerConnection(context, method: outgoing.method.rawValue, url: outgoing.url, headers: outgoing.headers)
        defer { if let exchange { connections.finish(exchange) } }
        if let body {
            let length: HTTPClientRequest.Body.Length
            if case .known(let count) = body.length { length = .known(count) } else { length = .unknown }
            outgoing.body = .stream(body.map { ByteBuffer(bytes: $0) }, length: length)
        }
        let deadline = context.deadline ?? (ContinuousClock.now + defaultTimeout)
        let remaining = max(.zero, ContinuousClock.now.duration(to: deadline))
        let client =
            proxiedClient(for: outgoing.url, stream: .some(context.idleTimeout)) ?? streamingClient(idleTimeout: context.idleTimeout) ?? self.client
        let response = try await client.execute(outgoing, deadline: .now() + TimeAmount(remaining), logger: nil)
        let length = response.headers.first(name: "content-length").flatMap(Int64.init).map(HTTPBody.Length.known) ?? .unknown
        let bytes = HTTPBody(response.body.map { ArraySlice($0.readableBytesView) }, length: length, iterationBehavior: .single)
        return (Self.head(response.status, response.headers), bytes)
    }

    /// Registers the exchange of a recorded call (``ConnectionUse``), to be told its connection when
    /// its head is written; nil (nothing registered) when nobody records the call, or over a client
    /// this transport did not configure (no handler there would tell).
    private func registerConnection(_ context: CallContext, method: String, url: String, headers: HTTPHeaders) -> UInt64? {
        guard settings != nil, let recorder = context.recorder else { return nil }
        return connections.register(recorder, attempt: context.attempt, method: method, url: url, headers: headers)
    }

    /// The whole-call deadline, always; the idle timeout of streamed bodies (AsyncHTTPClient's read
    /// timeout) unless the transport runs over a client it did not configure.
    public var capabilities: TransportCapabilities { settings != nil ? [.deadline, .idleTimeout, .buffersWhole] : [.deadline, .buffersWhole] }

    /// The client for streams with `idleTimeout`, made on first use with this transport's
    /// settings — without decompression: an event stream is not worth compressing (gzip holds
    /// events back to fill its blocks), and the decompressor costs 7% of the CPU per body part
    /// even when nothing is compressed (measured with perf) — and reading up to 256 KiB at a time
    /// (``readInLargerPieces(_:)``).
    private func streamingClient(idleTimeout: Duration?) -> HTTPClient? {
        guard let settings else { return nil }
        return streamingClients.withLock { clients in
            if let client = clients[idleTimeout] { return client }
            var settings = settings
            settings.readTimeout = idleTimeout
            var configuration = Self.configuration(settings, connections)
            configuration.decompression = .disabled
            Self.readInLargerPieces(&configuration)
            let client = HTTPClient(eventLoopGroup: self.client.eventLoopGroup, configuration: configuration)
            clients[idleTimeout] = client
            return client
        }
    }

    /// Streams read up to 256 KiB per read (SwiftNIO's default stops at 64 KiB), set on each new
    /// connection before its first request (in front of any TLS pin check already there).
    ///
    /// AsyncHTTPClient hands a streamed body over one read at a time (its back-pressure marks are
    /// 1 and 1: the reading task asks the event loop for each next part), so bigger reads mean
    /// fewer hand-overs and system calls per megabyte. Measured (1 GiB download over loopback to
    /// a file, release, median of 7, twice): 0.874 and 0.900 s with 64 KiB reads, 0.595 and 0.631 s
    /// with 256 KiB; `curl -o` in the same runs 0.797 and 0.853 s. The allocator adapts: a stream
    /// of small events keeps small buffers.
    private static func readInLargerPieces(_ configuration: inout HTTPClient.Configuration) {
        let allocator = AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 64 * 1024, maximum: 256 * 1024)
        for version in [\HTTPClient.Configuration.http1_1ConnectionDebugInitializer, \.http2ConnectionDebugInitializer] {
            let next = configuration[keyPath: version]
            configuration[keyPath: version] = { channel in
                channel.setOption(ChannelOptions.recvAllocator, value: allocator).flatMap {
                    next?(channel) ?? channel.eventLoop.makeSucceededVoidFuture()
                }
            }
        }
    }

    /// The client through the proxy ``Settings/proxy`` gives `url`, made on first use (a stream's
    /// with its idle timeout and no decompression, as ``streamingClient(idleTimeout:)``); nil for
    /// a direct request.
    private func proxiedClient(for url: String, stream: Duration??) -> HTTPClient? {
        guard let settings, let rules = settings.proxy, let target = URL(string: url), let proxy = rules.proxy(for: target) else { return nil }
        let key = ProxiedClientKey(proxy: proxy, stream: stream)
        return proxiedClients.withLock { clients in
            if let client = clients[key] { return client }
            var settings = settings
            if let stream { settings.readTimeout = stream }
            var configuration = Self.configuration(settings, connections)
            if stream != nil {
                configuration.decompression = .disabled
                Self.readInLargerPieces(&configuration)
            }
            switch proxy.kind {
            case .http:
                let authorization = proxy.username.map { HTTPClient.Authorization.basic(username: $0, password: proxy.password ?? "") }
                configuration.proxy = .server(host: proxy.host, port: proxy.port, authorization: authorization)
            case .socks5:
                configuration.proxy = .socksServer(host: proxy.host, port: proxy.port)
            }
            let client = HTTPClient(eventLoopGroup: self.client.eventLoopGroup, configuration: configuration)
            clients[key] = client
            return client
        }
    }

    /// AsyncHTTPClient's status and headers as swift-http-types' response head.
    private static func head(_ status: HTTPResponseStatus, _ headers: HTTPHeaders) -> HTTPResponse {
        var fields = HTTPFields()
        fields.reserveCapacity(headers.count)
        for (name, value) in headers {
            if let fieldName = HTTPField.Name(name) { fields.append(HTTPField(name: fieldName, value: value)) }
        }
        return HTTPResponse(status: .init(code: Int(status.code), reasonPhrase: status.reasonPhrase), headerFields: fields)
    }

    /// The URL `request` goes to: a recorded call's recorder joined it already, when it recorded
    /// the exchange's start (one join per request instead of three).
    private static func url(_ request: HTTPRequest, _ baseURL: URL, _ context: CallContext) -> String {
        let path = request.path ?? "/"
        return context.recorder?.joinedURL(baseURL, path) ?? URLJoin.join(baseURL, path)
    }

    /// `request` to `url` as AsyncHTTPClient's request.
    private static func outgoing(_ request: HTTPRequest, body: HTTPBody?, url: String, group: any EventLoopGroup) async throws -> HTTPClient.Request {
        var headers = HTTPHeaders()
        headers.reserveCapacity(request.headerFields.count)
        for field in request.headerFields {
            headers.add(name: field.name.rawName, value: field.value)
        }
        return try HTTPClient.Request(
            url: url,
            method: .init(rawValue: request.method.rawValue),
            headers: headers,
            body: try await requestBody(body, group: group)
        )
    }

    /// Small known-length bodies go as one buffer; others are streamed chunk by chunk.
    ///
    /// No event loop is picked unless a body is streamed: `EventLoopGroup.any()` advances the
    /// group's round-robin, and a second step per request would make AsyncHTTPClient prefer the
    /// same event loop for every request (measured: all connections on one loop, −15% at 32 in flight).
    private static func requestBody(_ body: HTTPBody?, group: any EventLoopGroup) async throws -> HTTPClient.Body? {
        guard let body else { return nil }
        if case .known(let length) = body.length, length <= 256 * 1024 {
            var buffer = ByteBuffer()
            buffer.reserveCapacity(Int(length))
            for try await chunk in body { buffer.writeBytes(chunk) }
            return .byteBuffer(buffer)
        }
        var declared: Int64?
        if case .known(let length) = body.length { declared = length }
        return .stream(contentLength: declared) { writer in
            let promise = group.any().makePromise(of: Void.self)
            promise.completeWithTask {
                for try await chunk in body {
                    try await writer.write(.byteBuffer(ByteBuffer(bytes: chunk))).get()
                }
            }
            return promise.futureResult
        }
    }
}
