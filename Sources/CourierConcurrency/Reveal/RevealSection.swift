import Courier

/// One section of an ``OrderedReveal``: an async operation plus where its ``FetchState`` goes.
///
/// Sections of different value types form one group, because the value type is erased here.
/// The `update` sink receives `.loading` when the section starts, then exactly one final
/// state per run (`.success`, `.failure` or `.cancel`).
///
/// ```swift
/// let overview = RevealSection("overview", operation: { try await alan.overview(for: coin) }) { state in
///     await MainActor.run { model.overview = state }
/// }
/// ```
public struct RevealSection: Sendable, Identifiable {
    /// The name used to cancel or retry this section, e.g. `"weekly"`.
    ///
    /// ```swift
    /// await reveal.cancel(section.id)
    /// ```
    public let id: String
    let showLoading: @Sendable () async -> Void
    let showCancelled: @Sendable () async -> Void
    /// Runs the operation and returns the deferred update that shows its final state.
    let resolve: @Sendable () async -> @Sendable () async -> Void

    /// A section that runs `operation` and sends its states to `update`.
    ///
    /// Errors map as by ``FetchState/init(error:)``: cancellation → `.cancel(.taskCancelled)`,
    /// anything else → `.failure`.
    ///
    /// ```swift
    /// RevealSection("today", operation: { try await alan.todayNews(for: coin) }) { state in
    ///     await MainActor.run { model.today = state }
    /// }
    /// ```
    public init<Value: Sendable>(
        _ id: String,
        operation: @escaping @Sendable () async throws -> Value,
        update: @escaping @Sendable (FetchState<Value>) async -> Void
    ) {
        self.id = id
        self.showLoading = { await update(.loading) }
        self.showCancelled = { await update(.cancel(.taskCancelled)) }
        self.resolve = {
            let state: FetchState<Value>
            do {
                state = .success(try await operation())
            } catch {
                state = FetchState(error: error)
            }
            return { await update(state) }
        }
    }
}

/// Where one section of an ``OrderedReveal`` stands.
///
/// ```swift
/// if await reveal.phase(of: "weekly") == .waitingForTurn { /* fetched, revealed soon */ }
/// ```
public enum RevealPhase: Sendable, Equatable {
    /// Not started yet.
    case idle
    /// The operation is running.
    case running
    /// The operation finished; its state is shown when the sections before it have been.
    case waitingForTurn
    /// The final state has been shown.
    case revealed
    /// Cancelled; its state is `.cancel(.taskCancelled)`.
    case cancelled
}
