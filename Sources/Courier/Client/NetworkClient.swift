import Foundation
import HTTPTypes
import Logging
import OpenAPIRuntime

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
    private let transportHandlesDeadline: Bool
    /// The transport, when no middleware needs the body as a stream and it can buffer itself.
    private let buffering: (any BufferingTransport)?

    /// A client with `configuration`.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.builder = RequestBuilder(encoder: configuration.encoder)
        self.transportHandlesDeadline = configuration.transport is any DeadlineAwareTransport
        self.buffering = configuration.middlewares.isEmpty ? configuration.transport as? any BufferingTransport : nil
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

    public func response(_ endpoint: some Endpoint) async throws(NetworkError) -> Response {
        let call = Call(
            built: try builder.build(endpoint),
            timeout: endpoint.timeout ?? configuration.timeout,
            secrets: endpoint.secrets,
            statusMapping: endpoint.statusMapping,
            // Only middlewares read the operation ID; naming the type costs a reflection call.
            operationID: configuration.middlewares.isEmpty ? "courier" : String(describing: type(of: endpoint))
        )
        return try await send(call)
    }

    /// One call with everything taken from its endpoint.
    private struct Call: Sendable {
        let built: RequestBuilder.Built
        let timeout: Duration
        let secrets: [String]
        let statusMapping: StatusMapping
        let operationID: String
    }

    /// The non-generic body of ``response(_:)``.
    private func send(_ call: Call) async throws(NetworkError) -> Response {
        let built = call.built
        if let host = built.plainHTTPHost { try checkTransportSecurity(host: host) }
        let deadline = ContinuousClock.now + call.timeout
        let context = RequestContext(deadline: deadline, secrets: call.secrets, maxResponseBytes: configuration.maxResponseBytes)
        let operationID = call.operationID
        do {
            let (head, body) = try await RequestContext.$current.withValue(context) {
                if transportHandlesDeadline {
                    return try await exchange(built, operationID: operationID)
                }
                return try await withDeadline(deadline) { try await self.exchange(built, operationID: operationID) }
            }
            if let error = call.statusMapping.error(for: head, body: body) { throw error }
            return Response(request: built.request, head: head, body: body)
        } catch {
            if Task.isCancelled { throw .taskCancelled }
            throw NetworkError(error)
        }
    }

    /// Sends through the middlewares and the transport and collects the body within the limit.
    private func exchange(_ built: RequestBuilder.Built, operationID: String) async throws -> (HTTPResponse, Data) {
        try Task.checkCancellation()
        let limit = configuration.maxResponseBytes
        if let buffering {
            let (head, data) = try await buffering.sendBuffered(built.request, body: built.body, baseURL: built.baseURL)
            if data.count > limit { throw NetworkError.responseTooLarge(limit: limit) }
            return (head, data)
        }
        let transport = configuration.transport
        var next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?) = {
            try await transport.send($0, body: $1, baseURL: $2, operationID: operationID)
        }
        for middleware in configuration.middlewares.reversed() {
            let inner = next
            next = { try await middleware.intercept($0, body: $1, baseURL: $2, operationID: operationID, next: inner) }
        }
        let (head, body) = try await next(built.request, built.body, built.baseURL)
        guard let body else { return (head, Data()) }
        return (head, try await BodyCollector.collect(body, limit: limit))
    }

    /// Plain `http://` only to allowed hosts (loopback by default) and `*.localhost`.
    private func checkTransportSecurity(host: String) throws(NetworkError) {
        if configuration.insecureHostsAllowed.contains(host) || host.hasSuffix(".localhost") { return }
        throw .insecureURL(host: host)
    }
}

/// Runs `operation`, failing with `URLError(.timedOut)` when `deadline` passes first.
func withDeadline<T: Sendable>(
    _ deadline: ContinuousClock.Instant,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(until: deadline, clock: .continuous)
            throw URLError(.timedOut)
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { throw URLError(.timedOut) }
        return first
    }
}
