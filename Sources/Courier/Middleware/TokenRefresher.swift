import CourierTransportCore

/// Runs at most one refresh per rejected token, however many calls ask for it at once.
///
/// Calls that were refused with the same token share one refresh; a call that arrives after
/// the refresh finished finds that the current token is no longer the one it was refused with
/// and uses the current one without refreshing again. A refresh that failed is remembered for
/// ``failureMemory``: calls refused with the same token in that time get the same failure
/// instead of starting a refresh each (no refresh storm against a failing auth server).
actor TokenRefresher {
    private let current: @Sendable () async -> BearerTokenMiddleware.Token?
    private let refresh: @Sendable (BearerTokenMiddleware.Token?) async throws -> BearerTokenMiddleware.Token?
    private var flights: [String: Task<BearerTokenMiddleware.Token?, any Error>] = [:]
    private var failures: [String: (error: any Error, at: ContinuousClock.Instant)] = [:]
    /// How long a failed refresh answers for its token.
    let failureMemory: Duration

    init(
        failureMemory: Duration = .seconds(10),
        current: @escaping @Sendable () async -> BearerTokenMiddleware.Token?,
        refresh: @escaping @Sendable (BearerTokenMiddleware.Token?) async throws -> BearerTokenMiddleware.Token?
    ) {
        self.failureMemory = failureMemory
        self.current = current
        self.refresh = refresh
    }

    /// A token to use instead of `rejected` (nil: the caller had none), refreshing only when
    /// the current token is still `rejected` (or expires within `margin`); the wait or the refresh
    /// noted on `recorder`, the asking call's.
    func replacement(for rejected: BearerTokenMiddleware.Token?, margin: Duration, recorder: CallRecorder? = nil) async throws
        -> BearerTokenMiddleware.Token?
    {
        let key = rejected?.value ?? ""
        if let flight = flights[key] {
            recorder?.record(.token(.waited))
            return try await flight.value
        }
        if let failure = failures[key], ContinuousClock.now - failure.at < failureMemory { throw failure.error }
        let current = self.current
        let refresh = self.refresh
        let flight = Task { () async throws -> BearerTokenMiddleware.Token? in
            if let now = await current(), now.value != rejected?.value, !now.expires(within: margin) { return now }
            return try await refresh(rejected)
        }
        flights[key] = flight
        recorder?.record(.token(.refreshed))
        defer { flights[key] = nil }
        do {
            return try await flight.value
        } catch {
            failures[key] = (error, ContinuousClock.now)
            throw error
        }
    }
}
