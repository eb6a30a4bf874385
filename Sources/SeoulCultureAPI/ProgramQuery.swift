import Foundation

/// The app's list filters: search, category, district, free, a day — applied on the client to
/// the full list.
///
/// ```swift
/// let shown = ProgramQuery(search: "재즈", isFreeOnly: true).apply(to: programs)
/// ```
public struct ProgramQuery: Sendable, Equatable {
    /// Text anywhere in the title, ignoring case; nil or empty matches all.
    public var search: String? {
        get { titleSearch?.text }
        set { titleSearch = newValue.flatMap { $0.isEmpty ? nil : TitleSearch($0) } }
    }
    private var titleSearch: TitleSearch?
    /// Exact category name.
    public var category: String?
    /// Exact district name.
    public var district: String?
    /// Only free programs.
    public var isFreeOnly: Bool
    /// Only programs running on this day (start ≤ day ≤ end).
    public var day: SeoulDay?

    /// A query; the defaults match everything.
    public init(search: String? = nil, category: String? = nil, district: String? = nil, isFreeOnly: Bool = false, day: SeoulDay? = nil) {
        self.titleSearch = search.flatMap { $0.isEmpty ? nil : TitleSearch($0) }
        self.category = category
        self.district = district
        self.isFreeOnly = isFreeOnly
        self.day = day
    }

    /// Whether `program` passes.
    public func matches(_ program: CulturalProgram) -> Bool {
        if isFreeOnly, !program.isFree { return false }
        if let category, program.category != category { return false }
        if let district, program.district != district { return false }
        if let day, !program.runs(on: day) { return false }
        if let titleSearch, !titleSearch.matches(program.title) { return false }
        return true
    }

    /// The programs that pass, in their order.
    public func apply(to programs: [CulturalProgram]) -> [CulturalProgram] {
        programs.filter(matches)
    }
}

extension CulturalProgram {
    /// Programs not over by `today` (end ≥ today), sorted by start date, then title, then id:
    /// what the app lists.
    public static func currentAndUpcoming(_ programs: [CulturalProgram], today: SeoulDay) -> [CulturalProgram] {
        // Sorted as indices with a day number for the first key: moving whole programs
        // (twenty-odd strings, ~330 bytes each) in the sort was most of its time.
        // Titles are compared as UTF-8 bytes when both are plain (then in NFC, where byte order
        // is String's order, without String's normalising comparison), with `<` otherwise.
        let kept = programs.indices.filter { programs[$0].endDate >= today }
        let dayNumbers = programs.map { $0.startDate.year * 10_000 + $0.startDate.month * 100 + $0.startDate.day }
        var plain = [Bool](repeating: false, count: programs.count)
        for index in kept { plain[index] = TitleSearch.isPlain(programs[index].title) }
        let order = kept.sorted { a, b in
            if dayNumbers[a] != dayNumbers[b] { return dayNumbers[a] < dayNumbers[b] }
            let first = programs[a].title
            let second = programs[b].title
            if plain[a] && plain[b] {
                if let before = Self.bytesPrecede(first, second) { return before }
            } else if first != second {
                return first < second
            }
            return programs[a].id < programs[b].id
        }
        return order.map { programs[$0] }
    }

    /// Whether `first`'s UTF-8 bytes come before `second`'s; nil when they are equal.
    static func bytesPrecede(_ first: String, _ second: String) -> Bool? {
        var first = first
        var second = second
        return first.withUTF8 { a in
            second.withUTF8 { b in
                let common = min(a.count, b.count)
                if common > 0 {
                    let order = memcmp(a.baseAddress!, b.baseAddress!, common)
                    if order != 0 { return order < 0 }
                }
                return a.count == b.count ? nil : a.count < b.count
            }
        }
    }

    /// How many of `programs` run on each day of `month` (1-based index by day of month).
    public static func countsPerDay(_ programs: [CulturalProgram], year: Int, month: Int) -> [SeoulDay: Int] {
        var counts: [SeoulDay: Int] = [:]
        let days = SeoulDay.daysIn(month: month, year: year)
        for dayNumber in 1...days {
            guard let day = SeoulDay(year: year, month: month, day: dayNumber) else { continue }
            counts[day] = programs.reduce(0) { $0 + ($1.runs(on: day) ? 1 : 0) }
        }
        return counts
    }
}
