#if WebSocket  // the `WebSocket` trait: Package.swift
import CourierTransportCore
import Foundation

/// When a ``WebSocketSession`` dials again: exponential backoff with jitter, capped, reset after
/// a stable period.
///
/// Attempt `n` (1, 2, …) waits `min(maxDelay, initialDelay × multiplierⁿ⁻¹)`, shortened at random
/// by up to `jitter` of itself (so many clients do not reconnect in step). A connection that
/// stayed up for `resetAfter` starts the count again at 1.
///
/// ```swift
/// let policy = ReconnectPolicy(initialDelay: .milliseconds(100), maxDelay: .seconds(10))
/// policy.delay(attempt: 3, random: 0)   // 400 ms
/// ```
public struct ReconnectPolicy: Sendable, Equatable {
    /// The wait before the first attempt after a failure.
    public var initialDelay: Duration
    /// The longest wait.
    public var maxDelay: Duration
    /// How much each wait grows.
    public var multiplier: Double
    /// The fraction (0…1) by which a wait may be shortened at random.
    public var jitter: Double
    /// A connection that stayed up this long resets the attempt count.
    public var resetAfter: Duration
    /// Give up after this many attempts in a row (nil: never).
    public var maxAttempts: Int?

    /// A policy; the defaults are 250 ms doubling up to 30 s, 20% jitter, reset after 30 s, no limit.
    public init(
        initialDelay: Duration = .milliseconds(250),
        maxDelay: Duration = .seconds(30),
        multiplier: Double = 2,
        jitter: Double = 0.2,
        resetAfter: Duration = .seconds(30),
        maxAttempts: Int? = nil
    ) {
        self.initialDelay = initialDelay
        self.maxDelay = max(maxDelay, initialDelay)
        self.multiplier = max(multiplier, 1)
        self.jitter = min(max(jitter, 0), 1)
        self.resetAfter = resetAfter
        self.maxAttempts = maxAttempts
    }

    /// Never reconnect: the session ends with the first failure.
    public static let never = ReconnectPolicy(maxAttempts: 0)

    /// The wait before attempt `attempt` (1-based); `random` in 0..<1 picks the jitter.
    public func delay(attempt: Int, random: Double) -> Duration {
        let exponent = Double(min(max(attempt - 1, 0), 64))
        let base = min(initialDelay.seconds * pow(multiplier, exponent), maxDelay.seconds)
        let seconds = base * (1 - jitter * min(max(random, 0), 1))
        return .nanoseconds(Int64((seconds * 1e9).rounded()))
    }

    /// The bounds a wait for `attempt` falls within, whatever the jitter.
    public func delayRange(attempt: Int) -> ClosedRange<Duration> {
        delay(attempt: attempt, random: 1)...delay(attempt: attempt, random: 0)
    }
}
#endif  // WebSocket
