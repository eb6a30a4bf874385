import Courier
public import Logging

/// Starts a group of sections at once and shows their results top-down, in the declared
/// order, at least ``interval`` apart (the coin report's "UI 순차 업데이트").
///
/// - All operations start together, so a slow first section delays the *reveal* of the
///   sections below it, never their requests.
/// - A section is revealed at `max(its result is ready, previous reveal + interval)`; the
///   first one as soon as it is ready.
/// - ``cancel(_:)`` cancels one section: its state becomes `.cancel(.taskCancelled)` before
///   the call returns, the others go on, and later reveals no longer wait for it.
/// - ``retry(_:)`` runs one section again (`.loading`, then its new result); a retried
///   section takes its turn behind the sections already waiting.
/// - A section that reports partial values (``RevealSection/init(_:operation:update:partialUpdate:)``)
///   is revealed at its first partial, by the same rule; from then on its partials and its final
///   state are shown as they come, and the next section's turn counts from that first reveal.
/// - Time comes from `clock`, so tests can use a manual clock.
/// - With a `logger`, each failure is logged once at `.error` when it is shown, as the seed's
///   `print(ne.log())`: the error's `NetworkError.log(file:function:)` line naming the file
///   that made the reveal and the section (`quotaExceeded(401)-"App/CoinViewModel.swift#weekly"`).
///   A cancelled run, or one replaced by a retry before it was shown, logs nothing.
///
/// ```swift
/// let reveal = OrderedReveal(sections: [
///     RevealSection("overview", operation: { try await alan.overview(for: coin) }) { s in await MainActor.run { model.overview = s } },
///     RevealSection("weekly", operation: { try await alan.weekly(for: coin) }) { s in await MainActor.run { model.weekly = s } },
///     RevealSection("today", operation: { try await alan.today(for: coin) }) { s in await MainActor.run { model.today = s } },
/// ])
/// await reveal.run()          // returns when every section has been revealed or cancelled
/// await reveal.cancel("weekly") // from the section's cancel button
/// await reveal.retry("weekly")  // from its retry button
/// ```
public actor OrderedReveal<C: Clock> where C.Duration == Duration {
    /// The minimum time between two reveals.
    ///
    /// ```swift
    /// OrderedReveal(sections: sections).interval // 350 ms
    /// ```
    public nonisolated let interval: Duration
    /// The sections' ids in reveal order.
    ///
    /// ```swift
    /// reveal.sectionIDs // ["overview", "weekly", "today"]
    /// ```
    public nonisolated let sectionIDs: [String]

    private let sections: [RevealSection]
    private let clock: C
    private let logger: Logger?
    /// The file that made this reveal, for the log line.
    private let file: String
    private var runs: [Run]
    /// Sections whose current run is still to be revealed, in reveal order.
    private var queue: [Int] = []
    private var lastReveal: C.Instant?
    private var generation = 0
    private var revealer: (id: Int, task: Task<Void, Never>)?
    private var wakeRevealer: CheckedContinuation<Void, Never>?
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []

    private struct Run {
        var generation = 0
        var phase: Phase = .idle
        var task: Task<Void, Never>?
    }

    private enum Phase {
        case idle
        case running
        /// Running, with a partial value waiting for the section's turn (the latest one).
        case partial(@Sendable () async -> Void)
        /// Finished, the final state waiting for the section's turn.
        case ready(@Sendable () async -> Void)
        /// Revealed at a partial value, still running: later partials are shown as they come.
        case live
        case revealed
        case cancelled
    }

    /// A group of `sections` revealed at least `interval` apart, timed by `clock`.
    ///
    /// Section ids should be unique; with duplicates, ``cancel(_:)`` and ``retry(_:)`` act on
    /// the first.
    ///
    /// ```swift
    /// let reveal = OrderedReveal(interval: .milliseconds(350), clock: ContinuousClock(), sections: sections, logger: logger)
    /// ```
    public init(
        interval: Duration = .milliseconds(350), clock: C, sections: [RevealSection], logger: Logger? = nil, file: String = #fileID
    ) {
        self.interval = interval
        self.clock = clock
        self.logger = logger
        self.file = file
        self.sections = sections
        self.sectionIDs = sections.map(\.id)
        self.runs = Array(repeating: Run(), count: sections.count)
    }

    /// Starts every section at once and returns without waiting for them.
    ///
    /// Each section's sink receives `.loading` first. Calling `start()` again restarts the
    /// whole group; results of the previous runs are dropped.
    ///
    /// ```swift
    /// await reveal.start()
    /// ```
    public func start() async {
        for section in sections {
            await section.showLoading()
        }
        revealer?.task.cancel()
        revealer = nil
        signalRevealer()
        lastReveal = nil
        queue.removeAll()
        for index in sections.indices {
            launch(index)
            queue.append(index)
        }
        ensureRevealer()
    }

    /// Starts every section and returns when each has been revealed or cancelled.
    ///
    /// Cancelling the task that awaits `run()` cancels every section still pending.
    ///
    /// ```swift
    /// .task { await reveal.run() }
    /// ```
    public func run() async {
        await withTaskCancellationHandler {
            await start()
            await waitUntilRevealed()
        } onCancel: {
            Task { await self.cancelAll() }
        }
    }

    /// Returns when no section is waiting to be revealed (a section revealed at a partial value
    /// counts until its final state is shown).
    ///
    /// ```swift
    /// await reveal.retry("today")
    /// await reveal.waitUntilRevealed()
    /// ```
    public func waitUntilRevealed() async {
        guard !isSettled else { return }
        await withCheckedContinuation { idleWaiters.append($0) }
    }

    /// Cancels one section: its operation is cancelled and its sink receives
    /// `.cancel(.taskCancelled)` before this returns. The other sections are untouched,
    /// and later reveals no longer wait for this one.
    ///
    /// ```swift
    /// Button("취소") { Task { await reveal.cancel("weekly") } }
    /// ```
    /// - Returns: false when the section is unknown or has nothing in flight (already revealed,
    ///   already cancelled or never started).
    @discardableResult
    public func cancel(_ id: String) async -> Bool {
        guard let index = sectionIDs.firstIndex(of: id) else { return false }
        switch runs[index].phase {
        case .running, .partial, .ready, .live: break
        case .idle, .revealed, .cancelled: return false
        }
        runs[index].task?.cancel()
        runs[index].task = nil
        runs[index].phase = .cancelled
        queue.removeAll { $0 == index }
        signalRevealer()
        await sections[index].showCancelled()
        resumeIdleWaitersIfSettled()
        return true
    }

    /// Cancels every section that is still pending.
    ///
    /// ```swift
    /// .onDisappear { Task { await reveal.cancelAll() } }
    /// ```
    public func cancelAll() async {
        for id in sectionIDs {
            await cancel(id)
        }
    }

    /// Runs one section again: its sink receives `.loading`, then its new result, revealed
    /// after the sections already waiting (and still at least ``interval`` after the last reveal).
    /// A run still in flight for that section is cancelled silently and replaced.
    ///
    /// ```swift
    /// Button("다시 시도") { Task { await reveal.retry("weekly") } }
    /// ```
    /// - Returns: false when the id is unknown.
    @discardableResult
    public func retry(_ id: String) async -> Bool {
        guard let index = sectionIDs.firstIndex(of: id) else { return false }
        await sections[index].showLoading()
        queue.removeAll { $0 == index }
        launch(index)
        queue.append(index)
        signalRevealer()
        ensureRevealer()
        return true
    }

    /// Where the section `id` stands, or nil for an unknown id.
    ///
    /// ```swift
    /// let phase = await reveal.phase(of: "today") // .running, .waitingForTurn, .revealed …
    /// ```
    public func phase(of id: String) -> RevealPhase? {
        guard let index = sectionIDs.firstIndex(of: id) else { return nil }
        switch runs[index].phase {
        case .idle: return .idle
        case .running, .partial: return .running
        case .live: return .streaming
        case .ready: return .waitingForTurn
        case .revealed: return .revealed
        case .cancelled: return .cancelled
        }
    }

    // MARK: - Machinery

    private func launch(_ index: Int) {
        runs[index].task?.cancel()  // a run being replaced must not keep its request going
        generation += 1
        let runGeneration = generation
        let section = sections[index]
        runs[index] = Run(generation: runGeneration, phase: .running, task: nil)
        let (logger, file) = (self.logger, self.file)
        runs[index].task = Task {
            let resolved = await section.resolve { partial in await self.partial(index, generation: runGeneration, show: partial) }
            await self.finish(index, generation: runGeneration) {
                if let logger, let failure = resolved.failure { logger.error("\(failure.log(file: file, function: section.id))") }
                await resolved.show()
            }
        }
    }

    /// A partial value of the current run of section `index`: kept for its turn, or shown at
    /// once when the section is already revealed.
    private func partial(_ index: Int, generation runGeneration: Int, show: @escaping @Sendable () async -> Void) async {
        guard runs[index].generation == runGeneration else { return }
        switch runs[index].phase {
        case .running, .partial:
            runs[index].phase = .partial(show)
            signalRevealer()
        case .live:
            await show()
        case .idle, .ready, .revealed, .cancelled:
            return
        }
    }

    private func finish(_ index: Int, generation runGeneration: Int, show: @escaping @Sendable () async -> Void) async {
        guard runs[index].generation == runGeneration else { return }
        switch runs[index].phase {
        case .running, .partial:
            runs[index].phase = .ready(show)
            runs[index].task = nil
            signalRevealer()
        case .live:
            // Already revealed: its final state replaces the partial at once.
            runs[index].phase = .revealed
            runs[index].task = nil
            await show()
            resumeIdleWaitersIfSettled()
        case .idle, .ready, .revealed, .cancelled:
            return
        }
    }

    private func signalRevealer() {
        wakeRevealer?.resume()
        wakeRevealer = nil
    }

    private func ensureRevealer() {
        guard revealer == nil else { return }
        generation += 1
        let id = generation
        revealer = (id, Task { await self.revealLoop(id: id) })
    }

    /// Reveals the head of the queue once it is ready and the interval has passed; waits
    /// (without polling) for a run to finish or the queue to change otherwise.
    private func revealLoop(id: Int) async {
        while !Task.isCancelled, let head = queue.first {
            switch runs[head].phase {
            case .ready(let show), .partial(let show):
                if let last = lastReveal {
                    let due = last.advanced(by: interval)
                    if clock.now < due {
                        try? await clock.sleep(until: due, tolerance: nil)
                        continue  // the queue may have changed while sleeping
                    }
                }
                queue.removeFirst()
                // At a partial value the section goes on running, shown (its later states come as they are).
                if case .partial = runs[head].phase { runs[head].phase = .live } else { runs[head].phase = .revealed }
                lastReveal = clock.now
                await show()
            case .running:
                await withCheckedContinuation { wakeRevealer = $0 }
            case .idle, .live, .revealed, .cancelled:
                queue.removeFirst()
            }
        }
        guard revealer?.id == id else { return }  // replaced by a restart
        revealer = nil
        resumeIdleWaitersIfSettled()
    }

    /// No section waits for its turn and none shown at a partial value is still running.
    private var isSettled: Bool {
        revealer == nil && queue.isEmpty
            && !runs.contains {
                if case .live = $0.phase { return true }
                return false
            }
    }

    private func resumeIdleWaitersIfSettled() {
        guard isSettled else { return }
        let waiters = idleWaiters
        idleWaiters.removeAll()
        for waiter in waiters { waiter.resume() }
    }
}

extension OrderedReveal where C == ContinuousClock {
    /// A group of `sections` revealed at least `interval` apart in real time.
    ///
    /// ```swift
    /// let reveal = OrderedReveal(sections: [overview, weekly, today])
    /// ```
    public init(interval: Duration = .milliseconds(350), sections: [RevealSection], logger: Logger? = nil, file: String = #fileID) {
        self.init(interval: interval, clock: ContinuousClock(), sections: sections, logger: logger, file: file)
    }
}
