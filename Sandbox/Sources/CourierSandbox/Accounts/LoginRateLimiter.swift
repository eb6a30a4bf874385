import Foundation

/// Sliding-window login limits: failed attempts per username, all attempts per client address.
///
/// Kept in memory: a restart forgets the windows, which only ever lets a client try again sooner.
actor LoginRateLimiter {
    private let limits: AccountsSettings.LoginLimits
    private let now: @Sendable () -> ContinuousClock.Instant
    private var failuresByUsername: [String: [ContinuousClock.Instant]] = [:]
    private var attemptsByAddress: [String: [ContinuousClock.Instant]] = [:]
    private var lastSweep: ContinuousClock.Instant

    /// A limiter; `now` is replaceable so tests can move time.
    init(limits: AccountsSettings.LoginLimits, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.limits = limits
        self.now = now
        self.lastSweep = now()
    }

    /// Records an attempt from `address` for `username` (as a failure until ``recordSuccess(username:)``); returns the seconds to wait when a limit
    /// is already reached (the attempt is then not counted), nil when the attempt may proceed.
    func admit(username: String, address: String) -> Int? {
        let now = self.now()
        sweepIfDue(now)
        let user = Self.key(username)
        let failures = recent(failuresByUsername[user], now)
        let attempts = recent(attemptsByAddress[address], now)
        var wait: Duration = .zero
        if failures.count >= limits.failuresPerUsername, let oldest = failures.first {
            wait = max(wait, oldest + limits.window - now)
        }
        if attempts.count >= limits.attemptsPerAddress, let oldest = attempts.first {
            wait = max(wait, oldest + limits.window - now)
        }
        if wait > .zero {
            failuresByUsername[user] = failures.isEmpty ? nil : failures
            attemptsByAddress[address] = attempts
            return max(1, Int((Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18).rounded(.up)))
        }
        // Counted as a failure until it succeeds, so parallel guesses cannot overrun the limit
        // while their hashes are still being checked.
        failuresByUsername[user] = failures + [now]
        attemptsByAddress[address] = attempts + [now]
        return nil
    }

    /// A successful login clears the username's failures.
    func recordSuccess(username: String) {
        failuresByUsername[Self.key(username)] = nil
    }

    private func recent(_ instants: [ContinuousClock.Instant]?, _ now: ContinuousClock.Instant) -> [ContinuousClock.Instant] {
        (instants ?? []).filter { now - $0 < limits.window }
    }

    /// Drops empty windows now and then so memory stays bounded by recent traffic.
    private func sweepIfDue(_ now: ContinuousClock.Instant) {
        guard now - lastSweep > limits.window else { return }
        lastSweep = now
        failuresByUsername = failuresByUsername.compactMapValues { list in
            let kept = recent(list, now)
            return kept.isEmpty ? nil : kept
        }
        attemptsByAddress = attemptsByAddress.compactMapValues { list in
            let kept = recent(list, now)
            return kept.isEmpty ? nil : kept
        }
    }

    /// Usernames are unique regardless of case, so their windows are too.
    private static func key(_ username: String) -> String { username.lowercased() }
}
