public import Foundation

/// A cultural program with real types, made from a ``CulturalEventRow``: Seoul days instead of
/// `" 00:00:00.0"` strings, coordinates put right by their values, a Bool for free.
///
/// ```swift
/// let program = try CulturalProgram(row: row)
/// if program.isFree && program.endDate >= .today() { … }
/// ```
public struct CulturalProgram: Codable, Sendable, Equatable, Identifiable {
    /// Stable across runs: derived from the row's title, dates, place and page (see ``stableID(for:)``).
    public var id: String
    /// The title.
    public var title: String
    /// The category (`CODENAME`), e.g. `"클래식"`.
    public var category: String
    /// The district (`GUNAME`), e.g. `"종로구"`.
    public var district: String
    /// Where.
    public var place: String
    /// The first day.
    public var startDate: SeoulDay
    /// The last day (inclusive).
    public var endDate: SeoulDay
    /// `IS_FREE == "무료"`.
    public var isFree: Bool
    /// The fee as the service wrote it.
    public var fee: String
    /// Latitude (≈ 37.x for Seoul), whichever of LAT/LOT held it; nil when neither looked right.
    public var latitude: Double?
    /// Longitude (≈ 126–127.x), whichever of LAT/LOT held it.
    public var longitude: Double?
    /// The program's page (`HMPG_ADDR`) as sent, when it is an http(s) link; see ``homepage``.
    public var homepageLink: String?
    /// The organiser's or ticket page (`ORG_LINK`) as sent, when it is an http(s) link.
    public var ticketLink: String?
    /// The poster (`MAIN_IMG`) as sent, when it is an http(s) link.
    public var imageLink: String?
    /// The organiser.
    public var organization: String
    /// Who may attend.
    public var target: String
    /// Performers.
    public var player: String
    /// The programme.
    public var program: String
    /// Other notes.
    public var notes: String
    /// Where to ask.
    public var inquiry: String
    /// Opening hours.
    public var time: String
    /// Who sells tickets (`TICKET`).
    public var ticket: String

    // The links stay text until asked for: three `URL(string:)` a row were a third of the
    // time to build 10,000 programs (SeoulBenchmark). JSON keys are the URL-typed names.
    enum CodingKeys: String, CodingKey {
        case id, title, category, district, place, startDate, endDate, isFree, fee, latitude, longitude
        case homepageLink = "homepage"
        case ticketLink = "ticketURL"
        case imageLink = "imageURL"
        case organization, target, player, program, notes, inquiry, time, ticket
    }

    /// The program's page (`HMPG_ADDR`).
    public var homepage: URL? { homepageLink.flatMap { URL(string: $0) } }
    /// The organiser's or ticket page (`ORG_LINK`).
    public var ticketURL: URL? { ticketLink.flatMap { URL(string: $0) } }
    /// The poster (`MAIN_IMG`).
    public var imageURL: URL? { imageLink.flatMap { URL(string: $0) } }

    /// Why a row could not become a program.
    public enum RowError: Error, Equatable, Sendable {
        /// Neither STRTDATE/END_DATE nor DATE held a usable date.
        case noDates(title: String)
    }

    /// The programs of `rows`, in their order; rows without usable dates are left out.
    public static func programs(from rows: consuming [CulturalEventRow]) -> [CulturalProgram] {
        // Rows are moved out one by one (reverse, then popLast), so each row's strings pass to
        // its program without being copied.
        var rows = rows
        rows.reverse()
        var programs: [CulturalProgram] = []
        programs.reserveCapacity(rows.count)
        while let row = rows.popLast() {
            if let program = try? CulturalProgram(row: row) { programs.append(program) }
        }
        return programs
    }

    /// True when the program runs on `day`.
    public func runs(on day: SeoulDay) -> Bool { startDate <= day && day <= endDate }
}

extension CulturalProgram {
    /// The program of `row`.
    public init(row: consuming CulturalEventRow) throws(RowError) {
        var row = row
        guard let (start, end) = Self.days(start: SeoulDay(row.startDate), end: SeoulDay(row.endDate), dateRange: { row.dateRange }) else {
            throw .noDates(title: row.title)
        }
        let (latitude, longitude) = Self.coordinates(row.lat, row.lot)
        self.init(
            id: Self.stableID(for: row), title: FieldText.trimmed(row.title), category: Self.take(&row.codeName),
            district: Self.take(&row.district), place: Self.take(&row.place), startDate: start, endDate: end,
            isFree: Self.isFree(row.isFree), fee: Self.take(&row.fee), latitude: latitude, longitude: longitude,
            homepageLink: FieldText.link(row.homepage), ticketLink: FieldText.link(row.orgLink), imageLink: FieldText.link(row.mainImage),
            organization: Self.take(&row.organization), target: Self.take(&row.target), player: Self.take(&row.player),
            program: Self.take(&row.program), notes: Self.take(&row.etcDescription), inquiry: Self.take(&row.inquiry),
            time: Self.take(&row.time), ticket: Self.take(&row.ticket))
    }

    /// The text of `field`, leaving `""`: a move (`swap`), not a copy — the retain and later
    /// release of a dozen strings a row showed in the profile of building 10,000 programs.
    private static func take(_ field: inout String) -> String {
        var taken = ""
        swap(&taken, &field)
        return taken
    }

    /// The first and last day of a row whose STRTDATE and END_DATE read as `start` and `end`:
    /// DATE (`"start~end"`, asked for only when needed) stands in for an unusable one; nil when
    /// there is no first day. The last day is never before the first.
    static func days(start: SeoulDay?, end: SeoulDay?, dateRange: () -> String) -> (first: SeoulDay, last: SeoulDay)? {
        if let start, let end { return (start, max(start, end)) }
        let range = dateRange()
        guard let first = start ?? SeoulDay(range) else { return nil }
        let last = end ?? range.split(separator: "~", maxSplits: 1).last.flatMap { SeoulDay($0) } ?? first
        return (first, max(first, last))
    }

    /// Whether `IS_FREE` says free (`"무료"`, white space around it ignored).
    static func isFree(_ text: String) -> Bool {
        FieldText.trimmed(text) == "무료"
    }

    /// Seoul's latitude and longitude ranges: LAT and LOT are trusted by value, not by name
    /// (the data had them swapped for a while; the seed app swapped them back on purpose).
    public static func coordinates(_ a: String, _ b: String) -> (latitude: Double?, longitude: Double?) {
        let latitudes = 33.0...39.0
        let longitudes = 124.0...132.0
        guard let x = Double(FieldText.trimmed(a)), let y = Double(FieldText.trimmed(b)) else { return (nil, nil) }
        if latitudes.contains(x), longitudes.contains(y) { return (x, y) }
        if latitudes.contains(y), longitudes.contains(x) { return (y, x) }
        return (nil, nil)
    }

    /// A 12-hex-digit FNV-1a hash of the row's title, dates, place and page: the same row gives
    /// the same id on every run and machine (Swift's `Hasher` is seeded per process).
    public static func stableID(for row: CulturalEventRow) -> String {
        var id = StableID()
        id.mix(row.title)
        id.mix(row.startDate)
        id.mix(row.endDate)
        id.mix(row.dateRange)
        id.mix(row.place)
        id.mix(row.homepage)
        return id.text
    }
}
