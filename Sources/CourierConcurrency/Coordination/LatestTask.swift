public import Courier

/// Latest wins: starting a new run cancels the one in flight (and, through task
/// cancellation, its transport request) — Raon's "a refresh cancels the running fetch".
///
/// A superseded run never delivers a value: its caller gets `NetworkError/taskCancelled`,
/// even if its operation ignored cancellation and finished. Cancelling the task that awaits
/// ``run(_:)`` cancels that run too.
///
/// ```swift
/// let refresh = LatestTask<[Program]>()
///
/// func reload() async {
///     do {
///         programs = try await refresh.run { try await seoul.allPrograms() }
///     } catch .taskCancelled {
///         // replaced by a newer refresh
///     } catch {
///         self.error = error
///     }
/// }
/// ```
public actor LatestTask<Value: Sendable> {
    private var current: (id: Int, task: Task<Value, any Error>)?
    private var runs = 0

    /// A latest-wins runner with nothing in flight.
    ///
    /// ```swift
    /// let search = LatestTask<[Program]>()
    /// ```
    public init() {}

    /// Cancels the run in flight, if any, then runs `operation` and returns its value.
    ///
    /// - Throws: `NetworkError/taskCancelled` when this run is superseded or cancelled;
    ///   otherwise the operation's error as a `NetworkError`.
    ///
    /// ```swift
    /// let results = try await search.run { try await api.search(query) }
    /// ```
    public func run(_ operation: @escaping @Sendable () async throws -> Value) async throws(NetworkError) -> Value {
        current?.task.cancel()
        runs += 1
        let id = runs
        let task = Task { try await operation() }
        current = (id, task)

        let result: Result<Value, any Error> = await withTaskCancellationHandler {
            do {
                return .success(try await task.value)
            } catch {
                return .failure(error)
            }
        } onCancel: {
            task.cancel()
        }
        if current?.id == id { current = nil }
        if task.isCancelled { throw .taskCancelled }
        return try result.mapError(NetworkError.init).get()
    }

    /// Cancels the run in flight, if any; its caller gets `NetworkError/taskCancelled`.
    ///
    /// ```swift
    /// .onDisappear { Task { await refresh.cancel() } }
    /// ```
    public func cancel() {
        current?.task.cancel()
        current = nil
    }

    /// True while a run is in flight.
    ///
    /// ```swift
    /// if await refresh.isRunning { showSpinner() }
    /// ```
    public var isRunning: Bool { current != nil }
}
