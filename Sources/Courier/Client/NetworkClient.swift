package import CourierTransportCore
import Foundation
package import HTTPTypes
import Logging
public import OpenAPIRuntime

/// Sends ``Endpoint``s through middlewares and a transport, maps the status, and decodes.
///
/// ```swift
/// let client = NetworkClient()
/// let user: UserResponse = try await client.request(UserAPI.get(id: 1))
/// ```
///
/// Every failure is a ``NetworkError``; cancelling the calling task cancels the transport
/// request and throws ``NetworkError/taskCancelled``.
public final class NetworkClient: NetworkProviding, Sendable {
    /// The configuration this client was made with.
    public let configuration: Configuration
    private let builder: RequestBuilder
    /// The one path every call takes: middlewares, transport, redirects and limits.
    private let pipeline: CallPipeline
    /// One feed per observer of ``Configuration/observers``.
    private let observerFeeds: [ObserverFeed]
    /// The configuration's tracing, read once.
    private let tracing: (any CallTracing)?
    /// Who else hears every event of this client's calls, on the calls' path (a call timeline).
    private let listeners: [@Sendable (CallStep) -> Void]

    /// A client with `configuration`.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.builder = RequestBuilder(encoder: configuration.encoder, baseURL: configuration.baseURL)
        self.pipeline = CallPipeline(configuration)
        self.observerFeeds = configuration.observers.map(ObserverFeed.init)
        self.tracing = configuration.callTracing
        self.listeners = []
    }

    /// `client`, its calls' events also told to `listener` (which must not block).
    private init(_ client: NetworkClient, listener: @escaping @Sendable (CallStep) -> Void) {
        configuration = client.configuration
        builder = client.builder
        pipeline = client.pipeline
        observerFeeds = client.observerFeeds
        tracing = client.tracing
        listeners = client.listeners + [listener]
    }

    /// This client — the same configuration, transport and observers — with each event of its
    /// calls also told to `listener`, on the call's path (it must not block): how a call timeline
    /// records.
    package func listening(_ listener: @escaping @Sendable (CallStep) -> Void) -> NetworkClient {
        NetworkClient(self, listener: listener)
    }

    /// A client over `transport` with `middlewares` and otherwise default settings.
    public convenience init(transport: any ClientTransport, middlewares: [any ClientMiddleware] = []) {
        self.init(configuration: Configuration(transport: transport, middlewares: middlewares))
    }

    public func request<T: Decodable & Sendable>(_ endpoint: some Endpoint, as type: T.Type) async throws(NetworkError) -> T {
        // Read everything the endpoint says before the first suspension: nothing generic over the
        // endpoint type lives across an `await` (cheaper frames in unspecialised generic code).
        let decoding = endpoint.responseDecoding
        let response = try await response(endpoint)
        if response.body.isEmpty, let empty = T.self as? any EmptyDecodable.Type, let value = empty.emptyValue as? T {
            return value
        }
        do {
            return try decoding.decode(T.self, from: response.body, using: configuration.decoder)
        } catch .decodingError(let error) {
            throw .decodingError(DecodingDiagnostics.attach(to: error, body: response.body))
        }
    }

    public func response(_ endpoint: some Endpoint) async throws(NetworkError) -> NetworkResponse {
        try await send(call(for: endpoint)).validated()
    }

    /// Sends `endpoint` and returns its answer. With `validatingStatus: false` an error status is
    /// not thrown but carried in ``NetworkResponse/statusError`` beside the status, headers and
    /// body, so an API's own error body can be read; with `true` this is ``response(_:)``.
    /// Transport failures, cancellation and a body over the size limit throw either way.
    public func response(_ endpoint: some Endpoint, validatingStatus: Bool) async throws(NetworkError) -> NetworkResponse {
        let response = try await send(call(for: endpoint))
        return validatingStatus ? try response.validated() : response
    }

    /// Renamed: an error status handed back rather than thrown is `response(_:validatingStatus: false)`.
    @available(*, deprecated, renamed: "response(_:validatingStatus:)")
    public func answer(_ endpoint: some Endpoint) async throws(NetworkError) -> NetworkResponse {
        try await response(endpoint, validatingStatus: false)
    }

    /// Everything taken from `endpoint` before the first suspension: nothing generic over the
    /// endpoint type lives across an `await` (cheaper frames in unspecialised generic code).
    /// With `toItsOwnServer`, the request goes to the endpoint's own `baseURL` even when the
    /// client has a ``Configuration/baseURL`` (a URL given whole).
    package func call(for endpoint: some Endpoint, toItsOwnServer: Bool = false) throws(NetworkError) -> Call {
        var built = try (toItsOwnServer ? RequestBuilder(encoder: configuration.encoder) : builder).build(endpoint)
        let traits = endpoint.traits
        configuration.idempotencyKeys.stamp(&built.request, traits: traits)
        return Call(
            built: built,
            timeout: endpoint.timeout ?? configuration.timeout,
            secrets: endpoint.secrets,
            statusMapping: endpoint.statusMapping,
            traits: traits,
            // Only middlewares read the operation ID; naming the type costs a reflection call.
            operationID: configuration.middlewares.isEmpty ? "courier" : String(describing: type(of: endpoint))
        )
    }

    /// One call with everything taken from its endpoint.
    package struct Call: Sendable {
        package var built: RequestBuilder.Built
        package let timeout: Duration
        package let secrets: [String]
        package let statusMapping: StatusMapping
        package let traits: CallTraits
        package let operationID: String

        /// The context middlewares and the transport see for this call.
        package func context(maxResponseBytes: Int, streams: Bool = false, idleTimeout: Duration? = nil) -> CallContext {
            CallContext(
                deadline: ContinuousClock.now + timeout, secrets: secrets, maxResponseBytes: maxResponseBytes,
                traits: traits, streamsResponse: streams, idleTimeout: idleTimeout, origin: built.baseURL,
                requestFile: built.file)
        }
    }

    /// The non-generic body of ``response(_:validatingStatus:)``.
    package func send(_ call: Call) async throws(NetworkError) -> NetworkResponse {
        var context = call.context(maxResponseBytes: configuration.maxResponseBytes)
        // Only a middleware (the cache) hands a collected answer over: none, nothing to allocate.
        if !configuration.middlewares.isEmpty { context.collected = CollectedAnswer() }
        context.recorder = recorder(for: call)
        return try await failing(context.recorder) { [context] in
            let collected = try await pipeline.collect(call, context: context)
            let statusError = call.statusMapping.error(for: collected.head, body: collected.body)
            finish(context.recorder, status: collected.head.status.code, error: statusError)
            return NetworkResponse(
                request: collected.request, head: collected.head, body: collected.body, statusError: statusError, redirects: collected.redirects)
        }
    }

    /// The one catch path of every call, buffered or streamed: a failure becomes its
    /// `NetworkError` (cancellation first) and ends the call's timeline.
    private func failing<T>(_ recorder: CallRecorder?, _ body: () async throws -> T) async throws(NetworkError) -> T {
        do {
            return try await body()
        } catch {
            let failure: NetworkError = Task.isCancelled ? .taskCancelled : NetworkError(error)
            finish(recorder, status: nil, error: failure)
            throw failure
        }
    }

    /// A recorder for `call` when someone listens (a ``CallTimeline`` recording, an observer, a tracer), its
    /// `callStarted` recorded; nil otherwise.
    func recorder(for call: Call) -> CallRecorder? {
        guard !listeners.isEmpty || !observerFeeds.isEmpty || tracing != nil else { return nil }
        var listeners = self.listeners
        for feed in observerFeeds where feed.wantsEachStep { listeners.append { feed.send(.event($0)) } }
        let recorder = CallRecorder(listeners: listeners, tracing: tracing?.trace())
        let url = recorder.redactedURL(call.built.baseURL, call.built.request.path ?? "/") { Redactor(secrets: call.secrets).url($0) }
        recorder.record(.callStarted(method: call.built.request.method.rawValue, url: url))
        return recorder
    }

    /// Records the end of a call and hands its timeline to the observers.
    func finish(_ recorder: CallRecorder?, status: Int?, error: NetworkError?) {
        guard let recorder else { return }
        recorder.record(.callFinished(status: status, error: error?.logDescription))
        guard !observerFeeds.isEmpty else { return }
        let events = recorder.steps
        for feed in observerFeeds { feed.send(.ended(events)) }
    }

    /// Sends `call` through the middlewares and the transport with the body handed back as it
    /// arrives (for event streams, byte streams, downloads), silent for at most `idleTimeout`. An
    /// error status is thrown, its body read within the limit — unless it is one of `accepting`
    /// (a download's 416).
    package func openStream(
        _ call: Call, idleTimeout: Duration?, accepting: Set<Int> = [], downloadOffer: DownloadStoreOffer? = nil
    ) async throws(NetworkError) -> (HTTPResponse, HTTPBody?) {
        let limit = configuration.maxResponseBytes
        var context = call.context(maxResponseBytes: limit, streams: true, idleTimeout: idleTimeout)
        context.downloadOffer = downloadOffer
        context.recorder = recorder(for: call)
        return try await failing(context.recorder) { [context] in
            let (head, opened) = try await pipeline.open(call, context: context)
            var body = opened
            if !accepting.contains(head.status.code) {
                body = try await Self.checkStatus(head, opened, mapping: call.statusMapping, limit: limit)
            }
            if let idleTimeout, let watched = body, !pipeline.capabilities.contains(.idleTimeout) {
                body = IdleWatchedBody.watch(watched, idleTimeout: idleTimeout)
            }
            // With a recorder, the call ends when its body does.
            if let recorder = context.recorder {
                guard let streamed = body else {
                    finish(recorder, status: head.status.code, error: nil)
                    return (head, nil)
                }
                body = RecordedBody.wrap(streamed, recorder: recorder) { [self] error in
                    finish(recorder, status: error == nil ? head.status.code : nil, error: error)
                }
            }
            return (head, body)
        }
    }

    /// An opened answer's status, mapped once: a success status (2xx) without its body (the body
    /// is the stream), any other with its body, read within `limit` — and handed on as those
    /// bytes when the mapping calls that status a success.
    private static func checkStatus(_ head: HTTPResponse, _ opened: HTTPBody?, mapping: StatusMapping, limit: Int) async throws -> HTTPBody? {
        if (200..<300).contains(head.status.code) {
            if let error = mapping.error(for: head, body: Data()) { throw error }
            return opened
        }
        guard let opened else {
            if let error = mapping.error(for: head, body: Data()) { throw error }
            return nil
        }
        let bytes = try await BodyCollector.collect(opened, limit: limit)
        if let error = mapping.error(for: head, body: bytes) { throw error }
        return HTTPBody(bytes)
    }
}
