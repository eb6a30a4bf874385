import Courier
public import Logging

/// Turns the outcome of an async operation into a ``FetchState`` and hands it to the screen
/// (the seed's `TaskResultHandler.apply`).
///
/// Unlike the seed, every error ends in a visible state: cancellation → `.cancel(.taskCancelled)`,
/// a `NetworkError` → `.failure`, any other error → `.failure(NetworkError(error))`.
/// With a `logger`, each failure is logged once at `.error` as the seed's `print(ne.log())`
/// did: the error's `NetworkError.log(file:function:)` line, naming where `apply` was called
/// (`notFound(404)-"App/CoinViewModel.swift#updateWeeklyUI()"`); a cancellation is not a failure.
/// `update` and `sideEffect` run on the caller's actor (the main actor for a view model),
/// so they may touch its state directly.
///
/// ```swift
/// @MainActor func updateOverviewUI() async {
///     await TaskResultHandler.apply(
///         of: overviewTask,
///         using: { $0.overview },
///         update: { self.overview = $0 },
///         logger: logger   // a failure logs `notFound(404)-"App/CoinViewModel.swift#updateOverviewUI()"`
///     )
/// }
/// ```
public enum TaskResultHandler {
    /// Waits for `task`, transforms its value and calls `update` with the state it ends in;
    /// on success `sideEffect` then runs with the task's raw value.
    ///
    /// A `nil` task (never started) and a task that was cancelled end in `.cancel(.taskCancelled)`,
    /// even if the cancelled task's operation returned a value anyway: a cancelled section
    /// never turns into a success behind the user's back.
    ///
    /// ```swift
    /// await TaskResultHandler.apply(
    ///     of: todayTask,
    ///     using: { $0.today },
    ///     update: { self.today = $0 },
    ///     sideEffect: { self.news = $0.articles }
    /// )
    /// ```
    /// - Returns: the state passed to `update`.
    @discardableResult
    public static func apply<Success: Sendable, Output>(
        of task: Task<Success, any Error>?,
        using transform: (Success) async throws -> Output,
        update: (FetchState<Output>) -> Void,
        sideEffect: ((Success) -> Void)? = nil,
        logger: Logger? = nil,
        file: String = #fileID,
        function: String = #function,
        isolation: isolated (any Actor)? = #isolation
    ) async -> FetchState<Output> {
        guard let task else {
            let state = FetchState<Output>.cancel(.taskCancelled)
            update(state)
            return state
        }
        return await apply(
            of: {
                let value = try await task.value
                if task.isCancelled { throw CancellationError() }
                return value
            },
            using: transform,
            update: update,
            sideEffect: sideEffect,
            logger: logger,
            file: file,
            function: function
        )
    }

    /// Waits for `task` and calls `update` with the state it ends in (no transformation).
    ///
    /// ```swift
    /// await TaskResultHandler.apply(of: weeklyTask, update: { self.weekly = $0 })
    /// ```
    @discardableResult
    public static func apply<Success: Sendable>(
        of task: Task<Success, any Error>?,
        update: (FetchState<Success>) -> Void,
        sideEffect: ((Success) -> Void)? = nil,
        logger: Logger? = nil,
        file: String = #fileID,
        function: String = #function,
        isolation: isolated (any Actor)? = #isolation
    ) async -> FetchState<Success> {
        await apply(of: task, using: { $0 }, update: update, sideEffect: sideEffect, logger: logger, file: file, function: function)
    }

    /// Runs `operation`, transforms its value and calls `update` with the state it ends in;
    /// on success `sideEffect` then runs with the operation's raw value.
    ///
    /// ```swift
    /// await TaskResultHandler.apply(
    ///     of: { try await service.fetchWeeklyTrends(for: coin) },
    ///     using: { CoinWeekly(from: $0) },
    ///     update: { self.weekly = $0 }
    /// )
    /// ```
    @discardableResult
    public static func apply<Success, Output>(
        of operation: () async throws -> Success,
        using transform: (Success) async throws -> Output,
        update: (FetchState<Output>) -> Void,
        sideEffect: ((Success) -> Void)? = nil,
        logger: Logger? = nil,
        file: String = #fileID,
        function: String = #function,
        isolation: isolated (any Actor)? = #isolation
    ) async -> FetchState<Output> {
        let state: FetchState<Output>
        var succeeded: Success?
        do {
            let value = try await operation()
            state = .success(try await transform(value))
            succeeded = value
        } catch {
            state = FetchState(error: error)
        }
        if let logger, case .failure(let error) = state {
            logger.error("\(error.log(file: file, function: function))")
        }
        update(state)
        if let succeeded, let sideEffect {
            sideEffect(succeeded)
        }
        return state
    }

    /// Runs `operation` and calls `update` with the state it ends in (no transformation).
    ///
    /// ```swift
    /// await TaskResultHandler.apply(of: { try await api.story(id: 1000) }, update: { self.story = $0 })
    /// ```
    @discardableResult
    public static func apply<Success>(
        of operation: () async throws -> Success,
        update: (FetchState<Success>) -> Void,
        sideEffect: ((Success) -> Void)? = nil,
        logger: Logger? = nil,
        file: String = #fileID,
        function: String = #function,
        isolation: isolated (any Actor)? = #isolation
    ) async -> FetchState<Success> {
        await apply(of: operation, using: { $0 }, update: update, sideEffect: sideEffect, logger: logger, file: file, function: function)
    }
}
