import Courier
import CourierTransportCore
import Synchronization
import Tracing
import W3CTraceContext

/// One call's spans (``TracingOptions``): fed its steps on the call's path, it opens the call's
/// `internal` span and a `client` span per HTTP exchange, puts the middlewares' decisions on the
/// call's span as events, and gives each exchange its W3C trace context.
final class CallSpans: AttemptTracing {
    private let tracer: any Tracer
    private let propagates: Bool
    /// Where the call's span hangs: the caller's context when the call began.
    private let parent: ServiceContext
    private let state = Mutex(State())
    /// Whether an exchange span of this call has recorded: until one has, a head or a connection
    /// step has nothing to annotate and is passed over without the lock (the no-op tracer's spans
    /// never record).
    private let exchangeRecorded = Atomic<Bool>(false)

    private struct State {
        var call: (any Span)?
        var method = "GET"
        /// The exchange under way. One at most: each exchange's start ends the one before
        /// (a slot, not a dictionary by attempt — that cost 1,500 instructions per call).
        var open: Exchange?
        /// The first exchange of a hedged call, still in flight beside its hedge (``open``).
        var hedged: Exchange?
        /// A hedge was just sent: the next exchange's start leaves the open one open.
        var hedging = false
        /// The call's trace id when the tracer does not speak W3C (made once, on the first exchange).
        var traceID: TraceID?
    }

    /// One HTTP exchange's span, open until its body is read or the call moves on.
    private struct Exchange {
        let attempt: Int
        let span: any Span
        /// Whether its span records (read once: the no-op tracer's never does, and then a step
        /// of the exchange costs a comparison).
        let recording: Bool
        /// When its head came: a span whose body is never read (a retried 503) ends there.
        var headAt: DefaultTracerClock.Instant?
    }

    init(_ options: TracingOptions) {
        tracer = options.tracer
        propagates = options.propagatesTraceContext
        parent = ServiceContext.current ?? .topLevel
    }

    func observe(_ event: CallStep) {
        switch event.kind {
        case .traceContext:
            return  // what the pipeline sent: nothing to do with the spans (it was asked of them)
        case .responseHead, .connection:
            // Only a recording exchange span takes these; with none, the lock is not worth taking.
            guard exchangeRecorded.load(ordering: .acquiring) else { return }
        default:
            break
        }
        state.withLock { state in
            switch event.kind {
            case .callStarted(let method, let url):
                state.method = method
                let span = tracer.startSpan(method, context: parent, ofKind: .internal)
                // Attributes and events only for a span that records them (not the no-op tracer's).
                if span.isRecording { span.attributes = Self.attributes(method: method, url: url) }
                state.call = span
            case .attemptStarted, .responseHead, .attemptFailed, .bodyDone, .traceContext, .connection:
                exchange(event, &state)
            case .callFinished(let status, let error):
                Self.endExchange(&state)
                guard let span = state.call else { return }
                state.call = nil
                if span.isRecording {
                    span.updateAttributes { attributes in
                        if let status { attributes["http.response.status_code"] = status }
                        if let error { attributes["error.type"] = MetricsObserver.Exchange.errorType(error) }
                    }
                }
                if let error { span.setStatus(SpanStatus(code: .error, message: error)) }
                span.end()
            default:
                Self.decision(event.kind, &state)
            }
        }
    }

    /// A step of one HTTP exchange: its own client span, started, annotated and ended.
    private func exchange(_ event: CallStep, _ state: inout State) {
        switch event.kind {
        case .attemptStarted(let url):
            if state.hedging {
                state.hedging = false
                state.hedged = state.open.take()
            } else {
                Self.endExchange(&state)
            }
            let span = tracer.startSpan(state.method, context: state.call?.context ?? parent, ofKind: .client)
            let recording = span.isRecording
            if recording {
                exchangeRecorded.store(true, ordering: .releasing)
                var attributes = Self.attributes(method: state.method, url: url)
                if event.attempt > 1 { attributes["http.request.resend_count"] = event.attempt - 1 }
                span.attributes = attributes
            }
            state.open = Exchange(attempt: event.attempt, span: span, recording: recording)
        case .responseHead(let status):
            guard let span = Self.recordingSpan(event.attempt, &state, head: true) else { return }
            span.updateAttributes { attributes in
                attributes["http.response.status_code"] = status
                if status >= 400 { attributes["error.type"] = String(status) }
            }
            if status >= 400 { span.setStatus(SpanStatus(code: .error)) }
        case .attemptFailed(let reason):
            guard let span = Self.take(event.attempt, &state)?.span else { return }
            span.attributes["error.type"] = MetricsObserver.Exchange.errorType(reason)
            span.setStatus(SpanStatus(code: .error, message: reason))
            span.end()
        case .bodyDone(let bytes):
            guard let exchange = Self.take(event.attempt, &state) else { return }
            if exchange.recording { exchange.span.attributes["http.response.body.size"] = bytes }
            exchange.span.end()
        case .traceContext:
            break
        case .connection(let number, let reused):
            guard let span = Self.recordingSpan(event.attempt, &state, head: false) else { return }
            span.updateAttributes { attributes in
                attributes["courier.connection.number"] = Int(truncatingIfNeeded: number)
                attributes["courier.connection.reused"] = reused
            }
        default:
            break
        }
    }

    /// The open exchange if it is exchange `attempt`, no longer open.
    private static func take(_ attempt: Int, _ state: inout State) -> Exchange? {
        if state.hedged?.attempt == attempt { return state.hedged.take() }
        guard state.open?.attempt == attempt else { return nil }
        return state.open.take()
    }

    /// The span of open exchange `attempt` when it records; a `head` is noted as come.
    private static func recordingSpan(_ attempt: Int, _ state: inout State, head: Bool) -> (any Span)? {
        if state.hedged?.attempt == attempt, state.hedged?.recording == true {
            if head { state.hedged?.headAt = DefaultTracerClock.now }
            return state.hedged?.span
        }
        guard state.open?.attempt == attempt, state.open?.recording == true else { return nil }
        if head { state.open?.headAt = DefaultTracerClock.now }
        return state.open?.span
    }

    /// A decision of Courier's machinery (a retry, a cache hit, a redirect …): an event on the call's span.
    private static func decision(_ kind: CallStep.Kind, _ state: inout State) {
        switch kind {
        case .retryScheduled(let reason, let delay, let budgetLeft):
            Self.endExchange(&state)
            guard state.call?.isRecording == true else { return }
            var attributes: SpanAttributes = [
                "courier.retry.reason": .string(reason), "courier.retry.delay_ms": .int64(delay.milliseconds),
            ]
            if let budgetLeft { attributes["courier.retry.budget_left"] = budgetLeft }
            state.call?.addEvent(SpanEvent(name: "courier.retry.scheduled", attributes: attributes))
        case .retryAbandoned(let reason):
            state.call?.addEvent(SpanEvent(name: "courier.retry.abandoned", attributes: ["courier.retry.reason": .string(reason)]))
        case .joined:
            state.call?.addEvent(SpanEvent(name: "courier.deduplication.joined"))
        case .cache(let outcome):
            state.call?.addEvent(SpanEvent(name: "courier.cache", attributes: ["courier.cache.outcome": .string(outcome.rawValue)]))
        case .token(let outcome):
            state.call?.addEvent(SpanEvent(name: "courier.token", attributes: ["courier.token.outcome": .string(outcome.rawValue)]))
        case .redirect(let status, let to):
            Self.endExchange(&state)
            guard state.call?.isRecording == true else { return }
            state.call?.addEvent(
                SpanEvent(
                    name: "courier.redirect",
                    attributes: ["http.response.status_code": .int64(Int64(status)), "courier.redirect.to": .string(to)]))
        case .hedgeSent(let delay):
            state.hedging = true
            state.call?.addEvent(SpanEvent(name: "courier.hedge.sent", attributes: ["courier.hedge.delay_ms": .int64(delay.milliseconds)]))
        case .hedgeWon(let byHedge):
            state.call?.addEvent(SpanEvent(name: "courier.hedge.settled", attributes: ["courier.hedge.won": .bool(byHedge)]))
        case .breaker(let outcome):
            state.call?.addEvent(SpanEvent(name: "courier.breaker", attributes: ["courier.breaker.outcome": .string(outcome.rawValue)]))
        case .paced(let wait):
            state.call?.addEvent(SpanEvent(name: "courier.paced", attributes: ["courier.paced.wait_ms": .int64(wait.milliseconds)]))
        case .note(let text):
            state.call?.addEvent(SpanEvent(name: "courier.note", attributes: ["courier.note": .string(text)]))
        default:
            break
        }
    }

    func traceContext(forAttempt attempt: Int) -> (traceParent: String, traceState: String?)? {
        guard propagates,
            let span = state.withLock({ state in state.open?.attempt == attempt ? state.open?.span : nil })
        else { return nil }
        // A tracer that speaks W3C Trace Context puts its own ids on the wire: its exported spans
        // and the server's then agree. Only the W3C fields are taken, checked by swift-w3c-trace-context.
        var carrier = TraceFields()
        tracer.inject(span.context, into: &carrier, using: TraceFieldsInjector())
        if let traceParent = carrier.traceParent,
            let context = try? TraceContext(traceParentHeaderValue: traceParent, traceStateHeaderValue: carrier.traceState)
        {
            return (context.traceParentHeaderValue, context.traceStateHeaderValue)
        }
        // Any other tracer: one trace id for the call, a new span id for each exchange.
        let traceID = state.withLock { state in
            if let id = state.traceID { return id }
            let id = TraceID.random()
            state.traceID = id
            return id
        }
        return (Self.traceParent(traceID: traceID, spanID: .random()), nil)
    }

    /// The sampled `traceparent` of `traceID` and `spanID`: the text of swift-w3c-trace-context's
    /// `TraceContext.traceParentHeaderValue` (the tests read it back with its parser), written
    /// straight into the string's own 55 bytes — its string interpolation cost 6,500 instructions
    /// per exchange, appending to an array 2,700.
    static func traceParent(traceID: TraceID, spanID: SpanID) -> String {
        String(unsafeUninitializedCapacity: 55) { text in
            text[0] = UInt8(ascii: "0")
            text[1] = UInt8(ascii: "0")
            text[2] = UInt8(ascii: "-")
            withUnsafeBytes(of: traceID.bytes) { bytes in Self.writeHex(bytes, into: text, at: 3) }
            text[35] = UInt8(ascii: "-")
            withUnsafeBytes(of: spanID.bytes) { bytes in Self.writeHex(bytes, into: text, at: 36) }
            text[52] = UInt8(ascii: "-")
            text[53] = UInt8(ascii: "0")
            text[54] = UInt8(ascii: "1")
            return 55
        }
    }

    /// Writes `bytes` as lowercase hex into `text` from `offset`.
    private static func writeHex(_ bytes: UnsafeRawBufferPointer, into text: UnsafeMutableBufferPointer<UInt8>, at offset: Int) {
        var index = offset
        for byte in bytes {
            text[index] = hexDigit(byte >> 4)
            text[index + 1] = hexDigit(byte & 0x0F)
            index += 2
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") - 10 + nibble
    }

    /// Ends the exchange still open (its head came but its body was never read) at its head's time.
    private static func endExchange(_ state: inout State) {
        if let hedged = state.hedged.take() { end(hedged) }  // nil unless a hedge is in flight
        if let open = state.open.take() { end(open) }
    }

    private static func end(_ exchange: Exchange) {
        if let headAt = exchange.headAt { exchange.span.end(at: headAt) } else { exchange.span.end() }
    }

    /// OpenTelemetry's HTTP client attributes of a request to `url` (already redacted).
    private static func attributes(method: String, url: String) -> SpanAttributes {
        let (scheme, host, port) = MetricsObserver.Exchange.server(of: url)
        var attributes: SpanAttributes = [:]
        attributes["http.request.method"] = method
        attributes["server.address"] = host
        attributes["server.port"] = port.flatMap { Int($0) } ?? (scheme == "https" ? 443 : 80)
        attributes["url.full"] = url
        return attributes
    }
}

/// What a tracer injects, of which only the W3C fields are kept.
struct TraceFields: Sendable {
    var traceParent: String?
    var traceState: String?
}

/// Takes the W3C `traceparent` and `tracestate` a tracer injects; drops the rest.
struct TraceFieldsInjector: Injector {
    func inject(_ value: String, forKey key: String, into carrier: inout TraceFields) {
        switch key.lowercased() {
        case "traceparent": carrier.traceParent = value
        case "tracestate": carrier.traceState = value
        default: break
        }
    }
}
