import ArgumentParser
import Courier
import CourierResilience
import Logging
import OpenAPIRuntime

/// The middlewares `courier bench` puts on its client, outermost first: retry (`--retry N`),
/// hedging (`--hedge`), the circuit breaker (`--breaker`), the rate-limit pacer (`--pace`). None
/// of them logs: what they did is counted from the calls' steps (``BenchObserver``) and shown in
/// the summary, and a log line would tear the progress bar or the `--json` output.
enum BenchMiddlewares {
    /// `--hedge auto|MS`: when a second copy of a slow exchange is sent.
    enum HedgeDelay: Equatable, Sendable {
        /// From the latencies seen so far (`HedgingPolicy(delay: .adaptive())`).
        case adaptive
        /// After this many milliseconds.
        case fixed(milliseconds: Int)

        /// `auto`, or a whole number of milliseconds (1…60000); nil for anything else.
        init?(_ text: String) {
            if text == "auto" {
                self = .adaptive
            } else if let milliseconds = Int(text), (1...60_000).contains(milliseconds) {
                self = .fixed(milliseconds: milliseconds)
            } else {
                return nil
            }
        }
    }

    /// The middlewares for the flags given, in order.
    static func make(retry: Int?, hedge: HedgeDelay?, breaker: Bool, pace: Bool) throws -> [any ClientMiddleware] {
        var middlewares: [any ClientMiddleware] = []
        let retryMiddleware = retry.map { RetryMiddleware(policy: RetryPolicy(maxAttempts: $0), logger: quiet("courier.retry")) }
        if let retryMiddleware { middlewares.append(retryMiddleware) }
        if let hedge { middlewares.append(hedging(hedge, budget: retryMiddleware?.budget)) }
        if breaker { middlewares.append(CircuitBreakerMiddleware(logger: quiet("courier.breaker"))) }
        if pace { middlewares.append(RateLimitPacer(logger: quiet("courier.pacer"))) }
        return middlewares
    }

    /// `--hedge`: the hedging middleware, funded by the retry budget when `--retry` gives one
    /// (else by a budget of its own: the client's retry budget funds hedges either way).
    static func hedging(_ delay: HedgeDelay, budget: RetryPolicy.Budget?) -> any ClientMiddleware {
        let policy: HedgingPolicy
        switch delay {
        case .adaptive: policy = HedgingPolicy(delay: .adaptive())
        case .fixed(let milliseconds): policy = HedgingPolicy(delay: .fixed(.milliseconds(milliseconds)))
        }
        return HedgingMiddleware(policy: policy, budget: budget, logger: quiet("courier.hedging"))
    }

    /// A logger that writes nothing.
    static func quiet(_ label: String) -> Logger {
        Logger(label: label) { _ in SwiftLogNoOpLogHandler() }
    }
}
