public import Courier

/// What to do when a page fails.
///
/// ```swift
/// Paginator<Program>(pageSize: 1000, onFailure: .collectFailures)
/// ```
public enum PaginationFailurePolicy: Sendable, Equatable {
    /// Cancel the other pages and throw the first page's error.
    case failFast
    /// Fetch every page anyway and return what arrived together with the failures.
    case collectFailures
}

/// A page that could not be fetched.
///
/// ```swift
/// for failure in result.failures { logger.warning("page \(failure.page.index): \(failure.error)") }
/// ```
public struct PageFailure: Error, Sendable, Equatable {
    /// The page.
    ///
    /// ```swift
    /// retryLater(failure.page)
    /// ```
    public let page: PageRequest
    /// Why it failed.
    ///
    /// ```swift
    /// log(failure.error.log())
    /// ```
    public let error: NetworkError

    /// A failed page.
    ///
    /// ```swift
    /// PageFailure(page: page, error: .serverError(500))
    /// ```
    public init(page: PageRequest, error: NetworkError) {
        self.page = page
        self.error = error
    }
}

/// Every item that arrived, in page order, and the pages that failed.
///
/// ```swift
/// let result = try await paginator.fetchAll(total: count) { try await api.programs($0) }
/// if !result.isComplete { showBanner("\(result.failures.count) pages missing") }
/// ```
public struct PaginationResult<Item: Sendable>: Sendable {
    /// The items of every fetched page, in page order (a failed page's items are missing).
    ///
    /// ```swift
    /// let rows = result.items
    /// ```
    public let items: [Item]
    /// The pages that failed, by page index.
    ///
    /// ```swift
    /// let missingPages = result.failures.map(\.page.index)
    /// ```
    public let failures: [PageFailure]
    /// The list's total, as told by the API.
    ///
    /// ```swift
    /// Text("\(result.items.count) of \(result.total)")
    /// ```
    public let total: Int

    /// A result.
    ///
    /// ```swift
    /// PaginationResult(items: rows, failures: [], total: rows.count)
    /// ```
    public init(items: [Item], failures: [PageFailure], total: Int) {
        self.items = items
        self.failures = failures
        self.total = total
    }

    /// True when no page failed.
    ///
    /// ```swift
    /// if !result.isComplete { showBanner() }
    /// ```
    public var isComplete: Bool { failures.isEmpty }
}

extension PaginationResult: Equatable where Item: Equatable {}
