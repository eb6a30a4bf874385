/// Something that happened to a call, at a monotonic time: its HTTP exchanges and every decision
/// Courier's machinery made on its way (a retry and why, a cache hit, a wait for a token).
///
/// A call's steps make its timeline (`CallTimeline` in Courier): `callStarted` first,
/// `callFinished` last, each HTTP exchange an `attemptStarted` … `responseHead` / `attemptFailed`
/// … `bodyDone`, with the middlewares' decisions between them. ``attempt`` is the exchange a step
/// belongs to (1 for the first), 0 before the first.
///
/// On Linux neither transport reports connect or TLS phases, so an exchange is queued → on a
/// connection (new or reused, where the transport can tell) → first byte (the head) → body;
/// nothing is invented for the phases not seen.
public struct CallStep: Sendable, Equatable {
    /// Which call: unique in this process, the same for every step of one call.
    public var call: UInt64
    /// The HTTP exchange the step belongs to (1, 2 … in the order they started), 0 before the first.
    public var attempt: Int
    /// When it happened.
    public var at: ContinuousClock.Instant
    /// What happened.
    public var kind: Kind

    /// Creates a step.
    public init(call: UInt64, attempt: Int, at: ContinuousClock.Instant, kind: Kind) {
        self.call = call
        self.attempt = attempt
        self.at = at
        self.kind = kind
    }

    /// What happened.
    public enum Kind: Sendable, Equatable {
        /// The call began: its method and URL (secrets redacted).
        case callStarted(method: String, url: String)
        /// An HTTP exchange was handed to the transport (it may wait there for a connection); the
        /// URL is this hop's (a redirect's target differs), redacted.
        case attemptStarted(url: String)
        /// The exchange carries this W3C `traceparent` (when the client traces): the call's trace
        /// id and the exchange's own span id.
        case traceContext(traceParent: String)
        /// The exchange's request went out on connection `number` (counted from 1 in this process),
        /// new or `reused` from an earlier request. Recorded when its head is written, so on a new
        /// connection the time since ``attemptStarted(url:)`` is the wait for a connection, the
        /// connect and the TLS handshake. Only a transport that can tell records it (Courier's
        /// AsyncHTTPClient transport, over a client it configured); otherwise it is unknown.
        case connection(number: UInt64, reused: Bool)
        /// The exchange's response head arrived.
        case responseHead(status: Int)
        /// The exchange failed before a head (`URLError` code, or the error's name).
        case attemptFailed(reason: String)
        /// The exchange's body was read to its end (bytes as delivered, after decompression).
        case bodyDone(bytes: Int)
        /// The retry middleware will send the request again after `delay`; `budgetLeft` is the
        /// retry budget's tokens after this failure (nil: no budget).
        case retryScheduled(reason: String, delay: Duration, budgetLeft: Double?)
        /// The retry middleware gave up on a retryable failure (attempts used, budget exhausted,
        /// deadline, an unreadable or too long `Retry-After`).
        case retryAbandoned(reason: String)
        /// The call joined an identical one in flight and shares its answer (no exchange of its own).
        case joined
        /// A cache decision.
        case cache(CacheOutcome)
        /// A bearer-token decision.
        case token(TokenOutcome)
        /// A redirect followed: its status and the next hop's URL (redacted).
        case redirect(status: Int, to: String)
        /// The hedging middleware sent a second copy of the exchange under way, `delay` after it
        /// started (the first complete answer wins; the other is cancelled).
        case hedgeSent(delay: Duration)
        /// A hedged exchange settled: the hedge answered first (`byHedge`), or the first attempt did.
        case hedgeWon(byHedge: Bool)
        /// A circuit breaker decision for the call's origin.
        case breaker(BreakerOutcome)
        /// The rate-limit pacer held the call `wait` for the origin's announced window to reset.
        case paced(wait: Duration)
        /// A decision noted on the call's way that has no step of its own.
        case note(String)
        /// The call ended: the final status (nil when no answer came) and the error it is, if any
        /// (as `NetworkError` names it: an error status, a transport failure).
        case callFinished(status: Int?, error: String?)
    }

    /// What the cache did for a call.
    public enum CacheOutcome: String, Sendable, Equatable {
        /// A fresh stored answer served, no exchange.
        case freshHit
        /// A stale stored answer served (stale-while-revalidate, stale-if-error, offline first).
        case staleServed
        /// A stored answer validated by a 304 and served.
        case revalidated
        /// Nothing usable stored: the network answered.
        case miss
        /// The answer was stored.
        case stored
        /// The cache stood aside (a method or a request directive it does not serve, a policy).
        case bypassed
    }

    /// What a circuit breaker did for a call (or what the call's outcome did to it).
    public enum BreakerOutcome: String, Sendable, Equatable {
        /// The breaker was open: the call failed at once, nothing sent.
        case rejected
        /// The break was over: this call went through as the one probe.
        case probe
        /// This call's failure opened the breaker (or the probe's failure opened it again).
        case opened
        /// This call's success (the probe's) closed the breaker.
        case closed
    }

    /// What the bearer-token middleware did for a call.
    public enum TokenOutcome: String, Sendable, Equatable {
        /// The saved token was attached.
        case attached
        /// The token was refreshed (this call ran the refresh).
        case refreshed
        /// The call waited for a refresh another call ran.
        case waited
    }
}
