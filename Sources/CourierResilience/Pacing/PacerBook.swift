import CourierTransportCore

/// What a ``RateLimitPacer`` knows of each origin's announced limit, on milliseconds of its clock:
/// a value type kept under a lock, testable on its own.
struct PacerBook {
    struct Origin {
        /// The lowest remaining count announced in the current window; nil when nothing was announced.
        var remaining: Int?
        /// When the announced window is over (its reset plus the margin).
        var resumeAtMs: Int64?
        /// The window's size, when announced: the budget of the next window.
        var limit: Int?
        /// Calls sent and not yet answered.
        var inFlight = 0
        /// Calls of this window that ended without an announcement (an error, an answer without
        /// the fields): the server may have counted them.
        var unannounced = 0

        /// Calls that may still be sent before ``resumeAtMs``: the lowest announced remaining count,
        /// less every call in flight and every one that ended unannounced. A call that ended with
        /// an announcement is not subtracted: the server counts requests in the order they arrive,
        /// so one whose answer announced as much or more was counted in the lowest count already —
        /// whichever answer came back first.
        var budget: Int? { remaining.map { $0 - inFlight - unannounced } }
    }

    enum Admission: Equatable {
        case send
        /// The budget is spent until then.
        case wait(untilMs: Int64)
    }

    /// Answers whose reset lies this much later than the one known start a new window; closer
    /// ones are the same window seen through the server's rounding (whole seconds at worst).
    static let newWindowMs: Int64 = 1000

    private var table: OriginTable<Origin>

    init(maxOrigins: Int) { table = OriginTable(capacity: maxOrigins) }

    /// Decides on a call to `origin` at `nowMs`; a call told to send is counted in flight.
    mutating func admit(_ key: OriginKey, nowMs: Int64) -> Admission {
        table.with(key, make: { Origin() }) { origin in
            if let resume = origin.resumeAtMs, nowMs >= resume {
                // The window is over: the next one's budget is its limit, less what is still out.
                origin.remaining = origin.limit
                origin.unannounced = 0
                origin.resumeAtMs = nil
            }
            if let budget = origin.budget, budget <= 0, let resume = origin.resumeAtMs { return .wait(untilMs: resume) }
            origin.inFlight += 1
            return .send
        }
    }

    /// A call admitted by ``admit(_:nowMs:)`` ended at `nowMs`, its answer announcing `limit`
    /// (nil: no answer, or nothing announced). The announced remaining count is taken as already
    /// spent by every call still in flight and every call sent from now on (``Origin/budget``).
    mutating func finish(_ key: OriginKey, announced limit: RateLimitHeaders?, nowMs: Int64, marginMs: Int64) {
        table.with(key, make: { Origin() }) { origin in
            origin.inFlight = max(0, origin.inFlight - 1)
            guard let limit else {
                if origin.remaining != nil { origin.unannounced += 1 }
                return
            }
            let resume = nowMs &+ limit.reset.milliseconds &+ marginMs
            if let current = origin.resumeAtMs, nowMs < current, resume < current &+ Self.newWindowMs {
                // The same window: answers overtake each other, so the lowest count seen stands.
                origin.remaining = min(origin.remaining ?? limit.remaining, limit.remaining)
                origin.resumeAtMs = max(current, resume)
            } else {
                origin.remaining = limit.remaining
                origin.unannounced = 0
                origin.resumeAtMs = resume
            }
            if let announced = limit.limit { origin.limit = announced }
        }
    }

    /// The origin's state (for tests and diagnostics).
    func peek(_ key: OriginKey) -> Origin? { table.peek(key) }
}
