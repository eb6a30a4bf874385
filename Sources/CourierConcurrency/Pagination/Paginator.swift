public import Courier

/// Fetches every page of a paged list with bounded concurrency and merges them in order
/// (Raon's "ask for the count, then fetch all ⌈N/1000⌉ pages in parallel").
///
/// Progress goes to a callback (or the stream of ``start(total:page:)``), in order, from one
/// task. Cancelling the calling task cancels the pages in flight and throws
/// `NetworkError/taskCancelled`.
///
/// ```swift
/// let paginator = Paginator<Program>(pageSize: 1000, maxConcurrentPages: 6)
/// let total = try await seoul.count()  // rows 1–1 tell list_total_count
/// let result = try await paginator.fetchAll(total: total, progress: { p in report(p.fractionCompleted) }) { page in
///     try await seoul.programs(from: page.firstRow, to: page.lastRow)
/// }
/// let programs = result.items  // in row order
/// ```
public struct Paginator<Item: Sendable>: Sendable {
    /// Items per page (at least 1).
    ///
    /// ```swift
    /// let pages = PageRequest.pages(total: total, pageSize: paginator.pageSize)
    /// ```
    public let pageSize: Int
    /// The most pages fetched at once (at least 1).
    ///
    /// ```swift
    /// Paginator<Row>(pageSize: 1000, maxConcurrentPages: 4).maxConcurrentPages // 4
    /// ```
    public let maxConcurrentPages: Int
    /// Fail fast, or return what arrived with the failures.
    ///
    /// ```swift
    /// Paginator<Row>(pageSize: 1000).failurePolicy // .failFast
    /// ```
    public let failurePolicy: PaginationFailurePolicy

    /// A paginator.
    ///
    /// ```swift
    /// Paginator<Row>(pageSize: 1000, maxConcurrentPages: 4, onFailure: .collectFailures)
    /// ```
    public init(pageSize: Int, maxConcurrentPages: Int = 6, onFailure failurePolicy: PaginationFailurePolicy = .failFast) {
        self.pageSize = Swift.max(1, pageSize)
        self.maxConcurrentPages = Swift.max(1, maxConcurrentPages)
        self.failurePolicy = failurePolicy
    }

    /// Fetches the ``PageRequest/pages(total:pageSize:)`` of a list of `total` items.
    ///
    /// - Throws: with ``PaginationFailurePolicy/failFast``, the first failing page's error
    ///   (the other pages are cancelled); `NetworkError/taskCancelled` when the calling task
    ///   is cancelled.
    ///
    /// ```swift
    /// let result = try await paginator.fetchAll(total: 10_000) { page in
    ///     try await client.request(RowsAPI.rows(offset: page.offset, limit: page.count), as: [Row].self)
    /// }
    /// ```
    public func fetchAll(
        total: Int,
        progress: (@Sendable (PaginationProgress) -> Void)? = nil,
        page fetch: @escaping @Sendable (PageRequest) async throws -> [Item]
    ) async throws(NetworkError) -> PaginationResult<Item> {
        try await run(total: total, first: nil, progress: progress, fetch: fetch)
    }

    /// Fetches the first page, learns the total from it, then fetches the rest.
    ///
    /// - Throws: the first page's error whatever the policy (without it the total is
    ///   unknown); otherwise as ``fetchAll(total:progress:page:)``.
    ///
    /// ```swift
    /// let result = try await paginator.fetchAll { page in
    ///     let answer = try await seoul.programs(from: page.firstRow, to: page.lastRow)
    ///     return Page(items: answer.rows, total: answer.listTotalCount)
    /// }
    /// ```
    public func fetchAll(
        progress: (@Sendable (PaginationProgress) -> Void)? = nil,
        page fetch: @escaping @Sendable (PageRequest) async throws -> Page<Item>
    ) async throws(NetworkError) -> PaginationResult<Item> {
        let firstRequest = PageRequest(index: 0, offset: 0, count: pageSize)
        let first: Page<Item>
        do {
            first = try await fetch(firstRequest)
        } catch {
            throw NetworkError(error)
        }
        return try await run(total: first.total, first: first.items, progress: progress) { try await fetch($0).items }
    }

    /// Starts fetching in a new task and returns at once, with the progress as a stream
    /// (it finishes when the fetch ends) and the result to await.
    ///
    /// ```swift
    /// let run = paginator.start(total: total) { try await api.rows($0) }
    /// for await p in run.progress { model.progress = p.fractionCompleted }
    /// let rows = try await run.result.items
    /// ```
    public func start(
        total: Int,
        page fetch: @escaping @Sendable (PageRequest) async throws -> [Item]
    ) -> PaginationRun<Item> {
        let (stream, continuation) = AsyncStream.makeStream(of: PaginationProgress.self)
        let task = Task { () async -> Result<PaginationResult<Item>, NetworkError> in
            defer { continuation.finish() }
            do {
                return .success(try await fetchAll(total: total, progress: { continuation.yield($0) }, page: fetch))
            } catch {
                return .failure(NetworkError(error))
            }
        }
        return PaginationRun(progress: stream, task: task)
    }

    private func run(
        total: Int,
        first: [Item]?,
        progress: (@Sendable (PaginationProgress) -> Void)?,
        fetch: @escaping @Sendable (PageRequest) async throws -> [Item]
    ) async throws(NetworkError) -> PaginationResult<Item> {
        let pages = PageRequest.pages(total: total, pageSize: pageSize)
        var slots = [[Item]?](repeating: nil, count: pages.count)
        var state = PaginationProgress(pagesFetched: 0, pagesFailed: 0, totalPages: pages.count, itemsFetched: 0, totalItems: total)
        var failures: [PageFailure] = []
        if let first, !slots.isEmpty {
            slots[0] = first
            state.pagesFetched = 1
            state.itemsFetched = first.count
        }
        progress?(state)

        let pending = pages.filter { slots[$0.index] == nil }
        var fatal: NetworkError?
        await BoundedFanOut.run(pending, limit: maxConcurrentPages, fetch) { finished in
            switch finished.result {
            case .success(let items):
                slots[finished.element.index] = items
                state.pagesFetched += 1
                state.itemsFetched += items.count
            case .failure(let error):
                if failurePolicy == .failFast {
                    fatal = error
                    return false
                }
                failures.append(PageFailure(page: finished.element, error: error))
                state.pagesFailed += 1
            }
            progress?(state)
            return true
        }
        if let fatal { throw fatal }
        if Task.isCancelled { throw .taskCancelled }

        var items: [Item] = []
        items.reserveCapacity(state.itemsFetched)
        for slot in slots {
            if let slot { items.append(contentsOf: slot) }
        }
        failures.sort { $0.page.index < $1.page.index }
        return PaginationResult(items: items, failures: failures, total: total)
    }
}

/// One page of a list whose first page tells the total.
///
/// ```swift
/// Page(items: answer.row, total: answer.listTotalCount)
/// ```
public struct Page<Item: Sendable>: Sendable {
    /// The page's items.
    ///
    /// ```swift
    /// rows.append(contentsOf: page.items)
    /// ```
    public let items: [Item]
    /// The whole list's item count.
    ///
    /// ```swift
    /// let pages = PageRequest.pages(total: page.total, pageSize: 1000)
    /// ```
    public let total: Int

    /// A page.
    ///
    /// ```swift
    /// Page(items: rows, total: 10_000)
    /// ```
    public init(items: [Item], total: Int) {
        self.items = items
        self.total = total
    }
}

/// A pagination started with ``Paginator/start(total:page:)``.
///
/// ```swift
/// let run = paginator.start(total: total) { try await api.rows($0) }
/// cancelButton.action = { run.cancel() }
/// ```
public struct PaginationRun<Item: Sendable>: Sendable {
    /// Progress reports, in order; the stream finishes when the fetch ends.
    ///
    /// ```swift
    /// for await p in run.progress { bar.value = p.fractionCompleted }
    /// ```
    public let progress: AsyncStream<PaginationProgress>
    let task: Task<Result<PaginationResult<Item>, NetworkError>, Never>

    /// The merged result, or the error that ended the fetch.
    ///
    /// ```swift
    /// let rows = try await run.result.items
    /// ```
    public var result: PaginationResult<Item> {
        get async throws(NetworkError) {
            try await task.value.get()
        }
    }

    /// Cancels the fetch; ``result`` then throws `NetworkError/taskCancelled`.
    ///
    /// ```swift
    /// cancelButton.action = { run.cancel() }
    /// ```
    public func cancel() {
        task.cancel()
    }
}
