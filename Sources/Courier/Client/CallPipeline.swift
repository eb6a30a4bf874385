import Foundation
import HTTPTypes
import OpenAPIRuntime

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The one path every call of a ``NetworkClient`` takes, whatever its shape (buffered or
/// streamed) and whatever the transport: the middlewares around the transport, redirects
/// followed hop by hop (each hop through the middlewares), and every limit of ``CallLimits``
/// checked here, once — a transport may enforce more on its own, the client never relies on it.
///
/// The model is swift-openapi-runtime's `UniversalClient.send`: one fold of the middlewares,
/// one place that maps errors (the caller's `NetworkError(error)`).
package struct CallPipeline: Sendable {
    /// The transport: Courier's own (the context passed to it) or any other.
    let transport: Stage<any CallTransport, any ClientTransport>
    /// The middlewares, outermost first: Courier's own (the context passed to them) or any other.
    let middlewares: [Stage<any CallMiddleware, any ClientMiddleware>]
    let limits: CallLimits
    let redirects: RedirectPolicy
    let insecureHostsAllowed: Set<String>
    /// The transport, when no middleware needs the body as a stream and it can buffer itself.
    let buffering: (any CallTransport)?
    /// What the transport does on its own.
    let capabilities: TransportCapabilities
    /// Whether a stage takes no context and may read ``CallContext/current`` (the task-local
    /// bridge is set only then).
    let bridges: Bool

    /// A transport or a middleware: Courier's own, or another that reads no context argument.
    enum Stage<Own: Sendable, Other: Sendable>: Sendable {
        case own(Own)
        case other(Other)
    }

    package init(_ configuration: NetworkClient.Configuration) {
        let transport = configuration.transport
        self.transport = (transport as? any CallTransport).map { .own($0) } ?? .other(transport)
        middlewares = configuration.middlewares.map { middleware in
            (middleware as? any CallMiddleware).map { .own($0) } ?? .other(middleware)
        }
        limits = configuration.limits
        redirects = configuration.redirects
        insecureHostsAllowed = configuration.insecureHostsAllowed
        let own = transport as? any CallTransport
        capabilities = (transport as? any CapableTransport)?.capabilities ?? []
        buffering = configuration.middlewares.isEmpty && capabilities.contains(.buffersWhole) ? own : nil
        bridges = own == nil || configuration.middlewares.contains { !($0 is any CallMiddleware) }
    }

    /// One hop's request.
    typealias Hop = RedirectHop

    /// What a buffered call got: the request that got the answer (the last hop's), the answer,
    /// and the redirects followed on the way.
    package struct Collected {
        var request: HTTPRequest
        var head: HTTPResponse
        var body: Data
        var redirects: [NetworkResponse.Redirect]
    }

    /// Sends `call`, follows its redirects, and collects the final body within the limits; the
    /// deadline bounds it all.
    package func collect(_ call: NetworkClient.Call, context: CallContext) async throws -> Collected {
        try await bridged(context) {
            if capabilities.contains(.deadline) { return try await collectHops(call, context) }
            return try await withDeadline(context.deadline ?? .now) { try await collectHops(call, context) }
        }
    }

    /// Sends `call` and follows its redirects, the final body handed back as it arrives; the
    /// deadline bounds the wait for the final head.
    func open(_ call: NetworkClient.Call, context: CallContext) async throws -> (HTTPResponse, HTTPBody?) {
        try await bridged(context) {
            if capabilities.contains(.deadline) { return try await openHops(call, context) }
            return try await withDeadline(context.deadline ?? .now) { try await openHops(call, context) }
        }
    }

    /// Runs `body` with `context` as ``CallContext/current`` when a stage takes no context argument.
    private func bridged<T: Sendable>(_ context: CallContext, _ body: () async throws -> T) async throws -> T {
        guard bridges else { return try await body() }
        return try await CallContext.$task.withValue(context) { try await body() }
    }

    /// The hops of a buffered call: each answer's body collected within the limit.
    private func collectHops(_ call: NetworkClient.Call, _ context: CallContext) async throws -> Collected {
        let (request, head, body, redirects) = try await followHops(call, context) { hop in
            try await exchange(hop, operationID: call.operationID, context: context)
        }
        return Collected(request: request, head: head, body: body, redirects: redirects)
    }

    /// The hops of a streamed call: the final answer's body handed back unread.
    private func openHops(_ call: NetworkClient.Call, _ context: CallContext) async throws -> (HTTPResponse, HTTPBody?) {
        let send = chain(operationID: call.operationID, context: context)
        let (_, head, body, _) = try await followHops(call, context) { hop in
            let (head, body) = try await send(hop.request, hop.body, hop.baseURL)
            try checkHead(head)
            return (head, body)
        }
        return (head, body)
    }

    /// The one hop loop: sends each hop with `exchange` (which gets its answer in the shape the
    /// call wants: bytes collected, or a body to stream) and follows redirects until an answer is
    /// not one. A redirect's body is dropped unread (dropping it releases the connection).
    private func followHops<Body>(
        _ call: NetworkClient.Call, _ context: CallContext, exchange: (Hop) async throws -> (HTTPResponse, Body)
    ) async throws -> (request: HTTPRequest, head: HTTPResponse, body: Body, redirects: [NetworkResponse.Redirect]) {
        var hop = Hop(
            request: call.built.request, body: call.built.body, baseURL: call.built.baseURL,
            plainHTTPHost: call.built.plainHTTPHost)
        var hops = 0
        var redirects: [NetworkResponse.Redirect] = []
        while true {
            try checkTransportSecurity(hop.plainHTTPHost)
            let (head, body) = try await exchange(hop)
            guard let next = try nextHop(after: head, hop, secrets: call.secrets, hops: &hops) else {
                return (hop.request, head, body, redirects)
            }
            if let from = URL(string: URLJoin.join(hop.baseURL, hop.request.path ?? "/")),
                let to = URL(string: URLJoin.join(next.baseURL, next.request.path ?? "/"))
            {
                redirects.append(NetworkResponse.Redirect(from: from, to: to, status: head.status.code))
            }
            Self.recordRedirect(head, to: next, secrets: call.secrets, recorder: context.recorder)
            hop = next
        }
    }

    /// The hop after `head`, counted against ``CallLimits/maxRedirects``; nil when `head` is the answer.
    private func nextHop(after head: HTTPResponse, _ hop: Hop, secrets: [String], hops: inout Int) throws -> Hop? {
        guard (300..<400).contains(head.status.code),
            let next = try RedirectHop.next(
                after: head, request: hop.request, body: hop.body, baseURL: hop.baseURL,
                secrets: secrets, policy: redirects)
        else { return nil }
        hops += 1
        if hops > limits.maxRedirects { throw URLError(.httpTooManyRedirects) }
        return next
    }

    /// Sends one hop through the middlewares and the transport and collects its body within the limit.
    private func exchange(_ hop: Hop, operationID: String, context: CallContext) async throws -> (HTTPResponse, Data) {
        try Task.checkCancellation()
        let limit = limits.maxResponseBytes
        let head: HTTPResponse
        let data: Data
        if let buffering {
            (head, data) = try await Self.attempt(hop.request, baseURL: hop.baseURL, context: context) { request, context in
                try await buffering.sendBuffered(request, body: hop.body, baseURL: hop.baseURL, context: context)
            }
            try checkHead(head)
        } else {
            let body: HTTPBody?
            (head, body) = try await chain(operationID: operationID, context: context)(hop.request, hop.body, hop.baseURL)
            try checkHead(head)
            if let body, let handed = context.collected?.take(body) {
                data = handed  // a body the cache served from memory comes as the Data it is
            } else if let body {
                data = try await BodyCollector.collect(body, limit: limit)
            } else {
                data = Data()
            }
        }
        if data.count > limit { throw NetworkError.responseTooLarge(limit: limit) }
        context.recorder?.record(.bodyDone(bytes: data.count))
        return (head, data)
    }

    /// The middlewares, outermost first, around the transport, for one call.
    func chain(operationID: String, context: CallContext) -> @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?) {
        let transport = self.transport
        var next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?) = { request, body, baseURL in
            // Every HTTP exchange passes here, whichever middleware sent it (a retry, a
            // revalidation): the timeline's attempts.
            try await Self.attempt(request, baseURL: baseURL, context: context) { request, context in
                try await Self.send(request, body, baseURL, transport, operationID, context)
            }
        }
        for middleware in middlewares.reversed() {
            let inner = next
            switch middleware {
            case .own(let middleware):
                next = { try await middleware.intercept($0, body: $1, baseURL: $2, operationID: operationID, context: context, next: inner) }
            case .other(let middleware):
                next = { try await middleware.intercept($0, body: $1, baseURL: $2, operationID: operationID, next: inner) }
            }
        }
        return next
    }

    /// One exchange through the transport.
    private static func send(
        _ request: HTTPRequest, _ body: HTTPBody?, _ baseURL: URL, _ transport: Stage<any CallTransport, any ClientTransport>,
        _ operationID: String, _ context: CallContext
    ) async throws -> (HTTPResponse, HTTPBody?) {
        switch transport {
        case .own(let transport): try await transport.send(request, body: body, baseURL: baseURL, context: context)
        case .other(let transport): try await transport.send(request, body: body, baseURL: baseURL, operationID: operationID)
        }
    }

    /// One HTTP exchange, recorded in the call's timeline when someone listens: its start (and
    /// trace context), its head or its failure.
    private static func attempt<Body>(
        _ request: HTTPRequest, baseURL: URL, context: CallContext,
        send: (HTTPRequest, CallContext) async throws -> (HTTPResponse, Body)
    ) async throws -> (HTTPResponse, Body) {
        guard let recorder = context.recorder else { return try await send(request, context) }
        var request = request
        var context = context
        context.attempt = startAttempt(&request, baseURL: baseURL, recorder: recorder, secrets: context.secrets)
        do {
            let answer = try await send(request, context)
            recorder.record(.responseHead(status: answer.0.status.code), attempt: context.attempt)
            return answer
        } catch {
            recorder.record(.attemptFailed(reason: NetworkError(error).logDescription), attempt: context.attempt)
            throw error
        }
    }

    /// Records the start of an HTTP exchange of `request` and returns its number; when the client
    /// traces, the request carries the exchange's W3C trace context (set, replacing any a previous
    /// attempt carried).
    private static func startAttempt(_ request: inout HTTPRequest, baseURL: URL, recorder: CallRecorder, secrets: [String]) -> Int {
        let url = recorder.redactedURL(baseURL, request.path ?? "/") { Redactor(secrets: secrets).url($0) }
        let attempt = recorder.startAttempt(url: url)
        guard let tracing = recorder.tracing, let context = tracing.traceContext(forAttempt: attempt) else { return attempt }
        request.headerFields[.traceparent] = context.traceParent
        if let state = context.traceState {
            request.headerFields[.tracestate] = state
        } else if request.headerFields.contains(.tracestate) {
            request.headerFields[.tracestate] = nil  // a previous attempt's, or the caller's: not this trace's
        }
        recorder.record(.traceContext(traceParent: context.traceParent), attempt: attempt)
        return attempt
    }

    /// Records a redirect followed in the call's timeline.
    static func recordRedirect(_ head: HTTPResponse, to next: Hop, secrets: [String], recorder: CallRecorder?) {
        guard let recorder else { return }
        recorder.record(.redirect(status: head.status.code, to: Redactor(secrets: secrets).url(URLJoin.join(next.baseURL, next.request.path ?? "/"))))
    }

    /// An answer's head within ``CallLimits/maxHeaderFields`` and ``CallLimits/maxHeaderBytes``.
    private func checkHead(_ head: HTTPResponse) throws {
        let fields = head.headerFields
        guard fields.count <= limits.maxHeaderFields else { throw URLError(.cannotParseResponse) }
        var bytes = 0
        for field in fields {
            bytes += field.name.rawName.utf8.count + field.value.utf8.count + 4  // ": " and CRLF
            if bytes > limits.maxHeaderBytes { throw URLError(.cannotParseResponse) }
        }
    }

    /// Plain `http://` only to allowed hosts (loopback by default) and `*.localhost`.
    func checkTransportSecurity(_ plainHTTPHost: String?) throws(NetworkError) {
        guard let host = plainHTTPHost else { return }
        if insecureHostsAllowed.contains(host) || host.hasSuffix(".localhost") { return }
        throw .insecureURL(host: host)
    }
}

extension HTTPField.Name {
    /// W3C Trace Context's `traceparent`.
    static let traceparent = HTTPField.Name("traceparent")!
    /// W3C Trace Context's `tracestate`.
    static let tracestate = HTTPField.Name("tracestate")!
}
