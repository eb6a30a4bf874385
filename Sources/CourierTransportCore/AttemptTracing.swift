/// A call's trace as the pipeline sees it (Courier's `TracingOptions`): told of each event as it
/// happens, on the call's path, and asked for the W3C trace context each HTTP exchange carries.
package protocol AttemptTracing: Sendable {
    /// One event of the call, on the call's path (it must not block).
    func observe(_ event: CallEvent)
    /// The `traceparent` (and `tracestate`, if any) for exchange `attempt`, whose `attemptStarted`
    /// was just observed; nil when the trace is not propagated.
    func traceContext(forAttempt attempt: Int) -> (traceParent: String, traceState: String?)?
}
