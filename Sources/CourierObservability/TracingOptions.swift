public import Courier
package import CourierTransportCore
public import Tracing

/// How a `NetworkClient` traces its calls with swift-distributed-tracing
/// (`NetworkClient.Configuration.tracing`; off by default).
///
/// Each call is an `internal` span; each HTTP exchange of it — the first attempt, every retry,
/// each redirect hop, a cache's revalidation — a `client` span under it, with OpenTelemetry's HTTP
/// client attributes (`http.request.method`, `server.address`, `server.port`, `url.full` with
/// secrets redacted, `http.response.status_code`, `error.type`, `http.request.resend_count` from
/// the second exchange on). The middlewares' decisions (a retry scheduled or given up, a cache
/// outcome, a call joined to one in flight, a token refreshed or waited for, a redirect followed)
/// are events of the call's span.
///
/// Every exchange carries the W3C `traceparent` (and `tracestate`, when the trace has one): one
/// trace id for the whole call, the exchange's own span id. When the tracer speaks W3C Trace
/// Context (swift-otel's does), its ids go on the wire, so the spans it exports and the server's
/// agree; a tracer that does not (the no-op one, the in-memory one) gets ids made by
/// swift-w3c-trace-context — a random trace id per call, a random span id per exchange. Only W3C
/// fields are sent, never a tracer's own. AsyncHTTPClient's own tracing is off under Courier's
/// transport, so nothing is traced or sent twice.
///
/// ```swift
/// var configuration = NetworkClient.Configuration()
/// configuration.tracing = TracingOptions()   // the tracer InstrumentationSystem was bootstrapped with
/// let client = NetworkClient(configuration: configuration)
/// ```
public struct TracingOptions: CallTracing {
    /// Starts the spans.
    public var tracer: any Tracer
    /// Whether each exchange carries the W3C `traceparent` and `tracestate` (true by default).
    public var propagatesTraceContext: Bool

    /// Options tracing with `tracer` — by default the one `InstrumentationSystem` was
    /// bootstrapped with (a test passes swift-distributed-tracing's `InMemoryTracer`).
    public init(tracer: any Tracer = InstrumentationSystem.tracer, propagatesTraceContext: Bool = true) {
        self.tracer = tracer
        self.propagatesTraceContext = propagatesTraceContext
    }

    /// The spans of a call that is starting.
    package func trace() -> any AttemptTracing { CallSpans(self) }
}

extension NetworkClient.Configuration {
    /// Traces every call with swift-distributed-tracing — an `internal` span per call, a
    /// `client` span per HTTP exchange — and sends the W3C `traceparent` with each exchange
    /// (``TracingOptions``; nil, the default: nothing traced, nothing sent).
    public var tracing: TracingOptions? {
        get { callTracing as? TracingOptions }
        set { callTracing = newValue }
    }
}
