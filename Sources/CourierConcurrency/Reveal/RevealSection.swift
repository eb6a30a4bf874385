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
    /// Runs the operation and returns the deferred update that shows its final state (with the
    /// failure it shows, if any); on the way, hands each partial value's deferred update to its argument.
    let resolve: @Sendable (_ partial: @escaping @Sendable (@escaping @Sendable () async -> Void) async -> Void) async -> Resolved

    /// A run's final state, not shown yet.
    struct Resolved: Sendable {
        /// Shows it.
        let show: @Sendable () async -> Void
        /// The failure it shows (`.failure`); nil for a success or a cancellation.
        let failure: NetworkError?

        init<Value: Sendable>(_ state: FetchState<Value>, update: @escaping @Sendable (FetchState<Value>) async -> Void) {
            show = { await update(state) }
            if case .failure(let error) = state { failure = error } else { failure = nil }
        }
    }

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
        self.resolve = { _ in
            let state: FetchState<Value>
            do {
                state = .success(try await operation())
            } catch {
                state = FetchState(error: error)
            }
            return Resolved(state, update: update)
        }
    }

    /// A section whose operation reports partial values as it goes (an LLM answer streamed token
    /// by token): the section is revealed at its first partial — in its turn, as a final state
    /// would be — and from then on each partial goes to `partialUpdate` as it comes, then the
    /// final state to `update`. Partials before the section's turn are not shown; the latest one
    /// is, when the turn comes. A section that ends before its first partial is revealed as a
    /// plain one. `update` still receives `.loading` first and exactly one final state per run.
    ///
    /// ```swift
    /// RevealSection("weekly", operation: { partial in
    ///     try await source.weekly(for: coin) { snapshot in await partial(snapshot) }
    /// }, update: { state in model.weekly = state }, partialUpdate: { snapshot in model.weeklyDraft = snapshot })
    /// ```
    public init<Value: Sendable, Partial: Sendable>(
        _ id: String,
        operation: @escaping @Sendable (_ partial: @escaping @Sendable (Partial) async -> Void) async throws -> Value,
        update: @escaping @Sendable (FetchState<Value>) async -> Void,
        partialUpdate: @escaping @Sendable (Partial) async -> Void
    ) {
        self.id = id
        self.showLoading = { await update(.loading) }
        self.showCancelled = { await update(.cancel(.taskCancelled)) }
        self.resolve = { report in
            let state: FetchState<Value>
            do {
                state = .success(try await operation { value in await report { await partialUpdate(value) } })
            } catch {
                state = FetchState(error: error)
            }
            return Resolved(state, update: update)
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
    /// The operation is running (not shown yet, partial values included).
    case running
    /// Shown at its first partial value, the operation still running.
    case streaming
    /// The operation finished; its state is shown when the sections before it have been.
    case waitingForTurn
    /// The final state has been shown.
    case revealed
    /// Cancelled; its state is `.cancel(.taskCancelled)`.
    case cancelled
}
