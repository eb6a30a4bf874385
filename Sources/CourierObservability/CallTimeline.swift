public import Courier
public import CourierTransportCore
import Foundation
import Synchronization

/// The steps of the calls made while it records — filled as they happen, on success and on
/// failure alike (a typed-throws `NetworkError` cannot carry them) — and a waterfall of them.
///
/// ```swift
/// let timeline = CallTimeline()
/// do {
///     let user = try await client.recording(into: timeline).request(UserAPI.get(id: 1))
/// } catch {
///     print(timeline.waterfall())   // what happened before it failed: attempts, retries, cache
/// }
/// ```
public final class CallTimeline: Sendable {
    private let state = Mutex<[CallStep]>([])

    /// An empty timeline.
    public init() {}

    /// Every step recorded so far, in the order they happened.
    public var steps: [CallStep] { state.withLock { $0 } }

    /// Records `step` (as it happens, on the call's path).
    func append(_ step: CallStep) {
        state.withLock { $0.append(step) }
    }

    /// The calls' steps as a waterfall, one line per step with the milliseconds since its call
    /// started, e.g.
    ///
    /// ```
    /// GET http://127.0.0.1:8080/flaky
    ///      0.0 ms  started
    ///      0.2 ms  #1 sent  http://127.0.0.1:8080/flaky
    ///      0.9 ms  #1 connection #1 new: connected (+0.7 ms)
    ///      2.1 ms  #1 head 503 (+1.2 ms)
    ///      2.2 ms  #1 retry in 200 ms: status 503 (budget 9.0)
    ///    203.0 ms  #2 sent  http://127.0.0.1:8080/flaky
    ///    203.1 ms  #2 connection #1 reused (+0.1 ms)
    ///    204.6 ms  #2 head 200 (+1.5 ms)
    ///    204.7 ms  #2 body 1.2 kB (+0.1 ms)
    ///    204.8 ms  finished 200
    /// ```
    ///
    /// On Linux no transport reports the connect and TLS phases apart: on a new connection the
    /// `connected` step is the wait for a connection, the connect and the handshake together; on a
    /// transport that cannot tell new from reused (URLSession, a client you configured) the step
    /// is not shown.
    public func waterfall() -> String {
        var lines: [String] = []
        var starts: [UInt64: ContinuousClock.Instant] = [:]
        var previous: [UInt64: ContinuousClock.Instant] = [:]
        for event in steps {
            let start = starts[event.call] ?? event.at
            starts[event.call] = start
            if case .callStarted(let method, let url) = event.kind {
                lines.append("\(method) \(url)")
                previous[event.call] = event.at
                continue
            }
            let since = Self.milliseconds(start, event.at)
            let step = previous[event.call].map { Self.milliseconds($0, event.at) } ?? "0.0"
            previous[event.call] = event.at
            let attempt = event.attempt > 0 ? "#\(event.attempt) " : ""
            lines.append("  \(since.leftPadded(8)) ms  \(attempt)\(Self.describe(event.kind, step: step))")
        }
        return lines.joined(separator: "\n")
    }

    private static func milliseconds(_ from: ContinuousClock.Instant, _ to: ContinuousClock.Instant) -> String {
        String(format: "%.1f", (to - from).seconds * 1000)
    }

    private static func describe(_ kind: CallStep.Kind, step: String) -> String {
        switch kind {
        case .callStarted(let method, let url): "\(method) \(url)"
        case .attemptStarted(let url): "sent  \(url)"
        case .traceContext(let traceParent): "traceparent \(traceParent)"
        case .connection(let number, let reused):
            reused ? "connection #\(number) reused (+\(step) ms)" : "connection #\(number) new: connected (+\(step) ms)"
        case .responseHead(let status): "head \(status) (+\(step) ms)"
        case .attemptFailed(let reason): "failed: \(reason) (+\(step) ms)"
        case .bodyDone(let bytes): "body \(ByteCountFormatter.string(fromByteCount: Int64(bytes), countStyle: .file)) (+\(step) ms)"
        case .retryScheduled(let reason, let delay, let budget):
            "retry in \(Int(delay.milliseconds)) ms: \(reason)"
                + (budget.map { String(format: " (budget %.1f)", $0) } ?? "")
        case .retryAbandoned(let reason): "not retried: \(reason)"
        case .joined: "joined an identical call in flight"
        case .cache(let outcome): "cache: \(outcome.rawValue)"
        case .token(let outcome): "token: \(outcome.rawValue)"
        case .redirect(let status, let to): "redirect \(status) → \(to)"
        case .hedgeSent(let delay): "hedge sent after \(Int(delay.milliseconds)) ms"
        case .hedgeWon(let byHedge): byHedge ? "hedge won: the first attempt cancelled" : "first attempt won: the hedge cancelled"
        case .breaker(let outcome): "circuit breaker: \(outcome.rawValue)"
        case .paced(let wait): "paced: held \(Int(wait.milliseconds)) ms for the rate limit"
        case .note(let text): text
        case .callFinished(let status, let error):
            switch (status, error) {
            case (let status?, let error?): "finished \(status): \(error)"
            case (let status?, nil): "finished \(status)"
            case (nil, let error): "failed: \(error ?? "unknown")"
            }
        }
    }
}

extension NetworkClient {
    /// This client — the same configuration, transport and observers — recording the steps of
    /// every call it makes into `timeline` as they happen, on success and on failure alike.
    ///
    /// ```swift
    /// let timeline = CallTimeline()
    /// let traced = client.recording(into: timeline)
    /// _ = try? await traced.response(UserAPI.get(id: 1))
    /// print(timeline.waterfall())
    /// ```
    public func recording(into timeline: CallTimeline) -> NetworkClient {
        listening { timeline.append($0) }
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        String(repeating: " ", count: max(0, width - count)) + self
    }
}
