import Foundation

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
    /// The program's page (`HMPG_ADDR`).
    public var homepage: URL?
    /// The organiser's or ticket page (`ORG_LINK`).
    public var ticketURL: URL?
    /// The poster (`MAIN_IMG`).
    public var imageURL: URL?
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

    /// Why a row could not become a program.
    public enum RowError: Error, Equatable, Sendable {
        /// Neither STRTDATE/END_DATE nor DATE held a usable date.
        case noDates(title: String)
    }

    /// The program of `row`.
    public init(row: CulturalEventRow) throws(RowError) {
        let range = row.dateRange.split(separator: "~", maxSplits: 1)
        guard let start = SeoulDay(row.startDate) ?? range.first.flatMap({ SeoulDay($0) }) else { throw .noDates(title: row.title) }
        let end = SeoulDay(row.endDate) ?? range.last.flatMap { SeoulDay($0) } ?? start
        let (latitude, longitude) = Self.coordinates(row.lat, row.lot)
        self.id = Self.stableID(for: row)
        self.title = row.title.trimmingCharacters(in: .whitespacesAndNewlines)
        self.category = row.codeName
        self.district = row.district
        self.place = row.place
        self.startDate = start
        self.endDate = max(start, end)
        self.isFree = row.isFree.trimmingCharacters(in: .whitespaces) == "무료"
        self.fee = row.fee
        self.latitude = latitude
        self.longitude = longitude
        self.homepage = Self.url(row.homepage)
        self.ticketURL = Self.url(row.orgLink)
        self.imageURL = Self.url(row.mainImage)
        self.organization = row.organization
        self.target = row.target
        self.player = row.player
        self.program = row.program
        self.notes = row.etcDescription
        self.inquiry = row.inquiry
        self.time = row.time
        self.ticket = row.ticket
    }

    /// Seoul's latitude and longitude ranges: LAT and LOT are trusted by value, not by name
    /// (the data had them swapped for a while; the seed app swapped them back on purpose).
    public static func coordinates(_ a: String, _ b: String) -> (latitude: Double?, longitude: Double?) {
        let latitudes = 33.0...39.0, longitudes = 124.0...132.0
        guard let x = Double(a.trimmingCharacters(in: .whitespaces)), let y = Double(b.trimmingCharacters(in: .whitespaces)) else { return (nil, nil) }
        if latitudes.contains(x), longitudes.contains(y) { return (x, y) }
        if latitudes.contains(y), longitudes.contains(x) { return (y, x) }
        return (nil, nil)
    }

    /// A 12-hex-digit FNV-1a hash of the row's title, dates, place and page: the same row gives
    /// the same id on every run and machine (Swift's `Hasher` is seeded per process).
    public static func stableID(for row: CulturalEventRow) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for part in [row.title, row.startDate, row.endDate, row.dateRange, row.place, row.homepage] {
            for byte in part.utf8 {
                hash ^= UInt64(byte)
                hash &*= 0x100_0000_01b3
            }
            hash ^= 0x1f
            hash &*= 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String((String(repeating: "0", count: max(0, 16 - hex.count)) + hex).suffix(12))
    }

    private static func url(_ text: String) -> URL? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("http://") || trimmed.hasPrefix("https://") else { return nil }
        return URL(string: trimmed)
    }

    /// True when the program runs on `day`.
    public func runs(on day: SeoulDay) -> Bool { startDate <= day && day <= endDate }
}
