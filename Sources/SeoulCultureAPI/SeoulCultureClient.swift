public import Courier
public import CourierConcurrency
public import Foundation
import Synchronization

/// Raon's data source: Seoul's cultural programs from `culturalEventInfo`.
///
/// ```swift
/// let seoul = SeoulCultureClient(key: key)                       // http://openapi.seoul.go.kr:8088
/// let programs = try await seoul.allPrograms { p in print(p.pagesFetched, "/", p.totalPages) }
/// ```
///
/// ``allPrograms(filter:progress:)`` asks rows 1–1 for the total, then every 1,000-row page at
/// once (bounded, each retried on transient failures by Courier's `RetryMiddleware`), merges,
/// keeps what is not over and sorts. Plain http is allowed to the API's own host only (and
/// loopback). The key is a secret of every call: masked in logs, absent from errors.
public final class SeoulCultureClient: Sendable {
    /// The key sent in every path.
    let key: String
    /// The client the calls go through.
    public let client: NetworkClient
    /// Pages fetched at once.
    public let maxConcurrentPages: Int
    /// Rows per page (the service's maximum, 1,000, unless a test wants smaller pages).
    public let pageSize: Int
    private let today: @Sendable () -> SeoulDay
    private let latest = LatestTask<Result<[CulturalProgram], SeoulAPIError>>()

    /// A client for `key`.
    ///
    /// - Parameters:
    ///   - key: the Seoul Open Data API key (it travels in the URL path; never logged).
    ///   - baseURL: the service root (`/{KEY}/json/…` follows); nil for the real service.
    ///   - configuration: transport, logging middlewares and so on; a `RetryMiddleware` with
    ///     `retryPolicy` is put in front of its middlewares.
    ///   - retryPolicy: how a failed page is retried before the whole load fails.
    ///   - maxConcurrentPages: pages fetched at once.
    ///   - pageSize: rows per page (at most the service's 1,000).
    ///   - today: "today" in Seoul, injectable for tests and `--today`.
    public init(
        key: String,
        baseURL: URL? = nil,
        configuration: NetworkClient.Configuration = NetworkClient.Configuration(),
        retryPolicy: RetryPolicy = RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(200)),
        maxConcurrentPages: Int = 8,
        pageSize: Int = CulturalEventAPI.maxRows,
        today: @escaping @Sendable () -> SeoulDay = { SeoulDay.today() }
    ) {
        var configuration = configuration
        if let baseURL { configuration.baseURL = baseURL }
        configuration.insecureHostsAllowed.insert(CulturalEventAPI.host)
        configuration.middlewares.insert(RetryMiddleware(policy: retryPolicy, logger: configuration.logger), at: 0)
        self.key = key
        self.client = NetworkClient(configuration: configuration)
        self.maxConcurrentPages = max(1, maxConcurrentPages)
        self.pageSize = min(max(1, pageSize), CulturalEventAPI.maxRows)
        self.today = today
    }

    /// Rows `start`…`end` (1-based, inclusive, at most 1,000) with the service's own filters.
    public func rows(start: Int, end: Int, filter: CulturalEventFilter = CulturalEventFilter()) async throws(SeoulAPIError) -> CulturalEventAnswer {
        try SeoulAnswerParser.parse(try await body(start: start, end: end, filter: filter))
    }

    /// Rows `start`…`end` made programs (rows without usable dates left out): read straight
    /// into programs by ``SeoulAnswerParser/programs(_:reading:)``.
    public func programs(start: Int, end: Int, filter: CulturalEventFilter = CulturalEventFilter()) async throws(SeoulAPIError)
        -> CulturalProgramAnswer
    {
        try SeoulAnswerParser.programs(try await body(start: start, end: end, filter: filter))
    }

    /// The body of the call for rows `start`…`end`.
    private func body(start: Int, end: Int, filter: CulturalEventFilter) async throws(SeoulAPIError) -> Data {
        do {
            return try await client.response(CulturalEventAPI.rows(key: key, start: start, end: end, filter: filter)).body
        } catch {
            throw SeoulAPIError(error)
        }
    }

    /// `list_total_count` for `filter`, from rows 1–1.
    public func totalCount(filter: CulturalEventFilter = CulturalEventFilter()) async throws(SeoulAPIError) -> Int {
        try await rows(start: 1, end: 1, filter: filter).totalCount
    }

    /// Every program matching `filter` that is not over (end ≥ today in Seoul), sorted by start
    /// date then title: 1 + ⌈N/1000⌉ requests. A page that fails after its retries fails the
    /// whole load with ``SeoulAPIError/pageFailed(page:pages:firstRow:lastRow:reason:)`` — never
    /// a partial list. Rows without usable dates are dropped.
    public func allPrograms(
        filter: CulturalEventFilter = CulturalEventFilter(),
        progress: (@Sendable (PaginationProgress) -> Void)? = nil
    ) async throws(SeoulAPIError) -> [CulturalProgram] {
        let total = try await totalCount(filter: filter)
        let pages = PageRequest.pages(total: total, pageSize: pageSize).count
        // The paginator speaks NetworkError; the first page error is kept here with its Seoul details.
        let firstFailure = Mutex<SeoulAPIError?>(nil)
        let paginator = Paginator<CulturalProgram>(pageSize: pageSize, maxConcurrentPages: maxConcurrentPages)
        let result: PaginationResult<CulturalProgram>
        do throws(NetworkError) {
            result = try await paginator.fetchAll(total: total, progress: progress) { page in
                do throws(SeoulAPIError) {
                    // Programs are made in the page's own task, while other pages are still on
                    // the wire (and on another core), not all at the end.
                    return try await self.programs(start: page.firstRow, end: page.lastRow, filter: filter).programs
                } catch {
                    let failure = SeoulAPIError.pageFailed(
                        page: page.index + 1, pages: pages, firstRow: page.firstRow, lastRow: page.lastRow, reason: error)
                    if !error.isCancellation { firstFailure.withLock { $0 = $0 ?? failure } }
                    throw error.networkError
                }
            }
        } catch {
            if error == .taskCancelled { throw .network(.taskCancelled) }
            throw firstFailure.withLock { $0 } ?? SeoulAPIError(error)
        }
        return CulturalProgram.currentAndUpcoming(result.items, today: today())
    }

    /// ``allPrograms(filter:progress:)``, latest wins: a refresh while one is running cancels
    /// the running one (its caller gets a cancellation, ``SeoulAPIError/isCancellation``).
    public func refresh(
        filter: CulturalEventFilter = CulturalEventFilter(),
        progress: (@Sendable (PaginationProgress) -> Void)? = nil
    ) async throws(SeoulAPIError) -> [CulturalProgram] {
        let outcome: Result<[CulturalProgram], SeoulAPIError>
        do throws(NetworkError) {
            outcome = try await latest.run { () async -> Result<[CulturalProgram], SeoulAPIError> in
                do throws(SeoulAPIError) {
                    return .success(try await self.allPrograms(filter: filter, progress: progress))
                } catch {
                    return .failure(error)
                }
            }
        } catch {
            throw .network(error)
        }
        return try outcome.get()
    }

    /// Today in Seoul as this client sees it.
    public var currentDay: SeoulDay { today() }
}
