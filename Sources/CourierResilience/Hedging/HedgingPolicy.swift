/// When a ``HedgingMiddleware`` sends a second copy of a slow exchange, and for which calls.
///
/// ```swift
/// HedgingPolicy(delay: .fixed(.milliseconds(50)))  // a hedge for every call slower than 50 ms
/// HedgingPolicy()  // adaptive: the origin's p95 of recent latencies (100 ms until 20 are known)
/// ```
public struct HedgingPolicy: Sendable, Equatable {
    /// How long the first attempt runs alone before its hedge is sent.
    public enum Delay: Sendable, Equatable {
        /// Always this long.
        case fixed(Duration)
        /// The `percentile` (0.5…0.999) of the origin's recent latencies — the last
        /// ``HedgingPolicy/window`` answers, kept in a bounded log-scale sketch — but never under
        /// `minimum`; `fallback` until the origin has ``HedgingPolicy/minimumSamples`` latencies.
        case adaptive(percentile: Double = 0.95, fallback: Duration = .milliseconds(100), minimum: Duration = .milliseconds(1))
    }

    /// How long the first attempt runs alone: adaptive by default.
    public var delay: Delay
    /// Whether only calls whose endpoint asks for it (`CallTraits.hedged == true`) are hedged;
    /// false (the default) hedges every call that is safe to send twice, unless its endpoint says
    /// `hedged: false`.
    public var onlyWhenAsked: Bool
    /// Latencies an origin needs before an adaptive delay trusts them: 20 by default.
    public var minimumSamples: Int
    /// How many of an origin's latest answers the adaptive delay is read from: 256 by default
    /// (at most 4,096).
    public var window: Int
    /// Origins whose latencies are kept (the least recently used is forgotten): 256 by default.
    public var maxOrigins: Int

    /// A policy; every value is clamped to a sane range.
    public init(
        delay: Delay = .adaptive(), onlyWhenAsked: Bool = false, minimumSamples: Int = 20, window: Int = 256,
        maxOrigins: Int = 256
    ) {
        switch delay {
        case .fixed(let fixed):
            self.delay = .fixed(max(.zero, fixed))
        case .adaptive(let percentile, let fallback, let minimum):
            let percentile = percentile.isNaN ? 0.95 : min(0.999, max(0.5, percentile))
            self.delay = .adaptive(percentile: percentile, fallback: max(.zero, fallback), minimum: max(.zero, minimum))
        }
        self.onlyWhenAsked = onlyWhenAsked
        self.window = min(4096, max(1, window))
        self.minimumSamples = min(self.window, max(1, minimumSamples))
        self.maxOrigins = max(1, maxOrigins)
    }
}
