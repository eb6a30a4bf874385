/// How far a ``Paginator`` has got — enough for a progress bar.
///
/// Reports are sent in order from one task: the counts only grow, and the last report of a
/// run that ended without throwing has ``isFinished`` set (``fractionCompleted`` == 1).
///
/// ```swift
/// progress: { p in Task { @MainActor in model.progress = p.fractionCompleted } }
/// ```
public struct PaginationProgress: Sendable, Hashable {
    /// Pages fetched successfully.
    ///
    /// ```swift
    /// Text("\(p.pagesFetched)/\(p.totalPages) pages")
    /// ```
    public var pagesFetched: Int
    /// Pages that failed (only with ``PaginationFailurePolicy/collectFailures``).
    ///
    /// ```swift
    /// if p.pagesFailed > 0 { showWarning() }
    /// ```
    public var pagesFailed: Int
    /// All pages of the list.
    ///
    /// ```swift
    /// Text("\(p.pagesFetched)/\(p.totalPages) pages")
    /// ```
    public var totalPages: Int
    /// Items received so far.
    ///
    /// ```swift
    /// Text("\(p.itemsFetched)/\(p.totalItems) rows")
    /// ```
    public var itemsFetched: Int
    /// The list's total, as told by the API.
    ///
    /// ```swift
    /// Text("\(p.itemsFetched)/\(p.totalItems) rows")
    /// ```
    public var totalItems: Int

    /// A progress report.
    ///
    /// ```swift
    /// PaginationProgress(pagesFetched: 3, pagesFailed: 0, totalPages: 10, itemsFetched: 3000, totalItems: 10_000)
    /// ```
    public init(pagesFetched: Int, pagesFailed: Int, totalPages: Int, itemsFetched: Int, totalItems: Int) {
        self.pagesFetched = pagesFetched
        self.pagesFailed = pagesFailed
        self.totalPages = totalPages
        self.itemsFetched = itemsFetched
        self.totalItems = totalItems
    }

    /// Pages finished (fetched or failed).
    ///
    /// ```swift
    /// let remaining = p.totalPages - p.pagesDone
    /// ```
    public var pagesDone: Int { pagesFetched + pagesFailed }

    /// Pages finished over all pages, from 0 to 1 (1 for an empty list).
    ///
    /// ```swift
    /// ProgressView(value: progress.fractionCompleted)
    /// ```
    public var fractionCompleted: Double {
        totalPages == 0 ? 1 : Double(pagesDone) / Double(totalPages)
    }

    /// True when every page has finished.
    ///
    /// ```swift
    /// if p.isFinished { hideProgressBar() }
    /// ```
    public var isFinished: Bool { pagesDone == totalPages }
}
