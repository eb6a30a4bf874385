package import Foundation
import Synchronization

/// Records one call's ``CallStep``s and hands each, as it happens, to whoever listens — a
/// `CallTimeline` the caller passed in, the client's observers. There is one only when someone
/// listens: with none, ``CallContext/recorder`` is nil and recording costs a nil check.
///
/// A middleware of your own can note its decisions in the call's timeline:
///
/// ```swift
/// CallContext.current?.recorder?.record(.note("served from the offline store"))
/// ```
package final class CallRecorder: Sendable {
    /// The call's number, unique in this process.
    package let call: UInt64
    private let state: Mutex<State>
    private let listeners: [@Sendable (CallStep) -> Void]
    /// The call's trace, when the client traces: what each exchange's request carries.
    package let tracing: (any AttemptTracing)?

    private struct State {
        /// Exchanges started so far.
        var attempt = 0
        /// The exchange a step without a number of its own belongs to: the last one started, or
        /// the last one whose head came after that (a hedged call has two in flight).
        var current = 0
        var events: [CallStep]
        /// The last URL joined and redacted for this call: most exchanges go where the call did.
        var url: JoinedURL?
    }

    /// A request's URL: its base URL and path, URLJoin's text of them, and that text redacted.
    private struct JoinedURL {
        let baseURL: URL
        let path: String
        let raw: String
        let redacted: String

        func isOf(_ baseURL: URL, _ path: String) -> Bool { self.path == path && self.baseURL == baseURL }
    }

    private static let nextCall = Atomic<UInt64>(0)

    /// A recorder for a new call, telling each step to `listeners` (which must not block), with
    /// `tracing` told of each step first when the client traces.
    package init(listeners: [@Sendable (CallStep) -> Void], tracing: (any AttemptTracing)? = nil) {
        call = Self.nextCall.add(1, ordering: .relaxed).newValue
        var events: [CallStep] = []
        events.reserveCapacity(8)  // a plain call's events, in one allocation
        state = Mutex(State(events: events))
        self.listeners = listeners
        self.tracing = tracing
    }

    /// Records `kind` now, for the exchange under way.
    ///
    /// `kind` is taken, not borrowed: it is moved into the step (through `pending`, which the
    /// locked closure empties) instead of copied there and released here — a copy of its payload
    /// (the URL and method strings, a reason) and its release per step.
    package func record(_ kind: consuming CallStep.Kind) {
        record(kind, attempt: nil)
    }

    /// Records `kind` now, for exchange `attempt` (nil: the exchange under way). A head recorded
    /// for an exchange makes it the one later steps without a number belong to.
    package func record(_ kind: consuming CallStep.Kind, attempt: Int?) {
        var pending = Optional(consume kind)
        let event = state.withLock { state in
            let kind = pending.take().unsafelyUnwrapped
            if let attempt, case .responseHead = kind { state.current = attempt }
            let event = CallStep(call: call, attempt: attempt ?? state.current, at: .now, kind: kind)
            state.events.append(event)
            return event
        }
        tracing?.observe(event)
        for listener in listeners { listener(event) }
    }

    /// Records the start of a new HTTP exchange to `url` (redacted) and returns its number.
    @discardableResult
    package func startAttempt(url: consuming String) -> Int {
        var pending = Optional(consume url)
        let event = state.withLock { state in
            state.attempt += 1
            state.current = state.attempt
            let event = CallStep(call: call, attempt: state.attempt, at: .now, kind: .attemptStarted(url: pending.take().unsafelyUnwrapped))
            state.events.append(event)
            return event
        }
        tracing?.observe(event)
        for listener in listeners { listener(event) }
        return event.attempt
    }

    /// The URL of `path` on `baseURL` (``URLJoin``'s text) redacted by `redact` — or as it was the
    /// last time, when it is the same base URL and path (a retry, the first exchange of the call's
    /// own URL): one join and one redaction per call instead of one per step.
    package func redactedURL(_ baseURL: URL, _ path: String, _ redact: (String) -> String) -> String {
        if let redacted = state.withLock({ $0.url?.isOf(baseURL, path) == true ? $0.url?.redacted : nil }) { return redacted }
        let raw = URLJoin.join(baseURL, path)
        let redacted = redact(raw)
        state.withLock { $0.url = JoinedURL(baseURL: baseURL, path: path, raw: raw, redacted: redacted) }
        return redacted
    }

    /// ``URLJoin``'s text of `path` on `baseURL`: the one ``redactedURL(_:_:_:)`` joined last when
    /// it is the same base URL and path (the transport's request, after its recorded start), else
    /// joined now. Each join is ~1,100 instructions.
    package func joinedURL(_ baseURL: URL, _ path: String) -> String {
        state.withLock { $0.url?.isOf(baseURL, path) == true ? $0.url?.raw : nil } ?? URLJoin.join(baseURL, path)
    }

    /// Every step so far, in order.
    package var steps: [CallStep] { state.withLock { $0.events } }
}
