public import Courier

/// Single flight: concurrent calls with the same key share one upstream call — a token
/// refresh that many requests ask for at once, or duplicate GETs of the same resource.
///
/// - The first caller for a key starts the operation; callers arriving while it runs wait for
///   the same result (value or error). Nothing is cached: once the call finishes, the next
///   call for the key starts a new one.
/// - Cancellation policy: a waiter that is cancelled stops waiting at once (it gets
///   `NetworkError/taskCancelled`); the shared call goes on for the others and is cancelled
///   only when every waiter has cancelled. A call after that starts afresh.
///
/// ```swift
/// let refreshes = SingleFlight<String, Token>()
///
/// func validToken() async throws(NetworkError) -> Token {
///     try await refreshes.value(for: "token") { try await auth.refresh() }
/// }
/// ```
public actor SingleFlight<Key: Hashable & Sendable, Value: Sendable> {
    private struct Flight {
        let id: Int
        let task: Task<Void, Never>
        var waiters: [Int: CheckedContinuation<Value, any Error>]
    }

    private var flights: [Key: Flight] = [:]
    private var ids = 0

    /// A single-flight group with nothing in flight.
    ///
    /// ```swift
    /// let gets = SingleFlight<URL, Data>()
    /// ```
    public init() {}

    /// The result of `operation` for `key`, shared with every concurrent caller for the same key.
    ///
    /// Only the first caller's `operation` runs; the others' are ignored.
    ///
    /// - Throws: the shared call's error as a `NetworkError`, or
    ///   `NetworkError/taskCancelled` when this caller is cancelled.
    ///
    /// ```swift
    /// let user = try await users.value(for: id) { try await client.request(UserAPI.get(id), as: User.self) }
    /// ```
    public func value(
        for key: Key,
        _ operation: @escaping @Sendable () async throws -> Value
    ) async throws(NetworkError) -> Value {
        ids += 1
        let waiterID = ids
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    join(key, waiterID, continuation, operation)
                }
            } onCancel: {
                Task { await self.leave(key, waiterID) }
            }
        } catch {
            throw NetworkError(error)
        }
    }

    /// Keys with a call in flight.
    ///
    /// ```swift
    /// let busy = await refreshes.inFlightKeys.contains("token")
    /// ```
    public var inFlightKeys: Set<Key> { Set(flights.keys) }

    /// How many callers wait for `key`'s call (0 when none is in flight).
    ///
    /// ```swift
    /// let sharing = await refreshes.waiterCount(for: "token")
    /// ```
    public func waiterCount(for key: Key) -> Int { flights[key]?.waiters.count ?? 0 }

    // MARK: - Machinery

    private func join(
        _ key: Key,
        _ waiterID: Int,
        _ continuation: CheckedContinuation<Value, any Error>,
        _ operation: @escaping @Sendable () async throws -> Value
    ) {
        // Checked here, on the actor, so a cancellation that fired before the waiter was
        // registered (its `leave` found nothing) is not lost.
        if Task.isCancelled {
            continuation.resume(throwing: CancellationError())
            return
        }
        if flights[key] != nil {
            flights[key]?.waiters[waiterID] = continuation
            return
        }
        ids += 1
        let flightID = ids
        let task = Task {
            let result: Result<Value, any Error>
            do {
                result = .success(try await operation())
            } catch {
                result = .failure(error)
            }
            self.land(key, flightID, result)
        }
        flights[key] = Flight(id: flightID, task: task, waiters: [waiterID: continuation])
    }

    private func leave(_ key: Key, _ waiterID: Int) {
        guard var flight = flights[key], let continuation = flight.waiters.removeValue(forKey: waiterID) else { return }
        continuation.resume(throwing: CancellationError())
        if flight.waiters.isEmpty {
            flight.task.cancel()
            flights[key] = nil
        } else {
            flights[key] = flight
        }
    }

    private func land(_ key: Key, _ flightID: Int, _ result: Result<Value, any Error>) {
        guard let flight = flights[key], flight.id == flightID else { return }
        flights[key] = nil
        for continuation in flight.waiters.values {
            continuation.resume(with: result)
        }
    }
}
