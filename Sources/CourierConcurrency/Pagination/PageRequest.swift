/// Which slice of a paged list to fetch.
///
/// Offsets are 0-based; ``firstRow`` and ``lastRow`` give the 1-based inclusive bounds that
/// APIs like Seoul Open Data's `…/{START}/{END}` expect.
///
/// ```swift
/// let url = "\(base)/\(key)/json/culturalEventInfo/\(page.firstRow)/\(page.lastRow)/"
/// ```
public struct PageRequest: Sendable, Hashable {
    /// The page's position, 0-based.
    ///
    /// ```swift
    /// Text("page \(page.index + 1)")
    /// ```
    public let index: Int
    /// The 0-based position of the page's first item in the whole list.
    ///
    /// ```swift
    /// let slice = rows[page.offset...]
    /// ```
    public let offset: Int
    /// How many items the page should hold (the last page may ask for fewer than the page size).
    ///
    /// ```swift
    /// let limit = page.count
    /// ```
    public let count: Int

    /// A page request.
    ///
    /// ```swift
    /// PageRequest(index: 2, offset: 2000, count: 1000) // rows 2001…3000
    /// ```
    public init(index: Int, offset: Int, count: Int) {
        self.index = index
        self.offset = offset
        self.count = count
    }

    /// The 1-based number of the page's first item (`offset + 1`).
    ///
    /// ```swift
    /// PageRequest(index: 1, offset: 1000, count: 1000).firstRow // 1001
    /// ```
    public var firstRow: Int { offset + 1 }

    /// The 1-based number of the page's last item (`offset + count`).
    ///
    /// ```swift
    /// PageRequest(index: 1, offset: 1000, count: 1000).lastRow // 2000
    /// ```
    public var lastRow: Int { offset + count }

    /// The page's 0-based item range.
    ///
    /// ```swift
    /// let slice = allRows[page.range]
    /// ```
    public var range: Range<Int> { offset..<(offset + count) }

    /// The pages that cover `total` items `pageSize` at a time (`⌈total / pageSize⌉` pages).
    ///
    /// ```swift
    /// PageRequest.pages(total: 2500, pageSize: 1000).map(\.count) // [1000, 1000, 500]
    /// ```
    public static func pages(total: Int, pageSize: Int) -> [PageRequest] {
        let pageSize = Swift.max(1, pageSize)
        guard total > 0 else { return [] }
        return stride(from: 0, to: total, by: pageSize).enumerated().map { index, offset in
            PageRequest(index: index, offset: offset, count: Swift.min(pageSize, total - offset))
        }
    }
}
