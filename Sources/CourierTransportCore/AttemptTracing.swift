/// A call's trace as the pipeline sees it (Courier's `TracingOptions`): told of each event as it
/// happens, on the call's path, and asked for the W3C trace context each HTTP exchange carries.
/// A class: the recorder hands each step to it through a reference, not a copied box.
package protocol AttemptTracing: AnyObject, Sendable {
    /// One event of the call, on the call's path (it must not block).
    func observe(_ event: CallStep)
    /// The `traceparent` (and `tracestate`, if any) for exchange `attempt`, whose `attemptStarted`
    /// was just observed; nil when the trace is not propagated.
    func traceContext(forAttempt attempt: Int) -> (traceParent: String, traceState: String?)?
}

/// What traces a client's calls (CourierObservability's `TracingOptions`): one trace per call.
package protocol CallTracing: Sendable {
    /// The trace of a call that is starting (in the caller's task, so it can take the caller's
    /// trace as its parent).
    func trace() -> any AttemptTracing
}
