public import Foundation

/// A calendar day in Seoul (Asia/Seoul), written `YYYY-MM-DD`: the unit of every date in the
/// `culturalEventInfo` data (times are always `00:00:00.0` and are dropped).
///
/// ```swift
/// let today = SeoulDay.today()
/// let day = SeoulDay("2026-10-03 00:00:00.0")   // 2026-10-03
/// day.map { $0 >= today }
/// ```
public struct SeoulDay: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The year, e.g. 2026.
    public let year: Int
    /// The month, 1–12.
    public let month: Int
    /// The day of the month, 1–31.
    public let day: Int

    /// The day with these parts, or nil when they do not make a real date (2026-02-30).
    public init?(year: Int, month: Int, day: Int) {
        // Arithmetic, not Calendar: parsing 20,000 dates must stay well under a millisecond each.
        guard (1...9999).contains(year), (1...12).contains(month), (1...Self.daysIn(month: month, year: year)).contains(day) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Days in `month` of `year` (Gregorian).
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Parses the first ten characters of `text` as `YYYY-MM-DD` (so `"2026-10-03 00:00:00.0"`
    /// works); nil for anything else.
    public init?(_ text: some StringProtocol) {
        self.init(utf8: text.utf8)
    }

    /// ``init(_:)`` on UTF-8 bytes as they are: the JSON scanner reads STRTDATE/END_DATE straight
    /// from the answer's bytes, without making a String of them.
    init?<Bytes: Collection<UInt8>>(utf8: Bytes) {
        // Read from the UTF-8 bytes: a fixed format needs no formatter, and 20,000 of these are
        // parsed per 10,000 rows.
        var bytes = utf8.drop { $0 == 0x20 || $0 == 0x09 }.prefix(10).makeIterator()
        func number(_ count: Int) -> Int? {
            var value = 0
            for _ in 0..<count {
                guard let byte = bytes.next(), (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard let year = number(4), bytes.next() == 0x2D, let month = number(2), bytes.next() == 0x2D, let day = number(2) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The Gregorian calendar in Asia/Seoul.
    public static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Asia/Seoul") ?? TimeZone(secondsFromGMT: 9 * 3600) ?? .current
        return calendar
    }()

    /// The day `date` falls on in Seoul.
    public init(_ date: Date) {
        let parts = Self.calendar.dateComponents([.year, .month, .day], from: date)
        self.year = parts.year ?? 1970
        self.month = parts.month ?? 1
        self.day = parts.day ?? 1
    }

    /// Today in Seoul.
    public static func today(now: Date = Date()) -> SeoulDay { SeoulDay(now) }

    /// Midnight at the start of this day in Seoul.
    public var date: Date {
        Self.calendar.date(from: DateComponents(year: year, month: month, day: day)) ?? Date(timeIntervalSince1970: 0)
    }

    /// The day `days` later (earlier when negative).
    public func adding(days: Int) -> SeoulDay {
        SeoulDay(Self.calendar.date(byAdding: .day, value: days, to: date) ?? date)
    }

    /// Whole days from this day to `other` (negative when `other` is earlier).
    public func days(to other: SeoulDay) -> Int {
        Self.calendar.dateComponents([.day], from: date, to: other.date).day ?? 0
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        String(format: "%04d-%02d-%02d", year, month, day)
    }

    /// `YYYYMMDD`, as iCalendar's `VALUE=DATE` wants it.
    public var basicFormat: String {
        String(format: "%04d%02d%02d", year, month, day)
    }

    /// 1 (Sunday) … 7 (Saturday).
    public var weekday: Int { Self.calendar.component(.weekday, from: date) }

    public static func < (lhs: SeoulDay, rhs: SeoulDay) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let day = SeoulDay(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a YYYY-MM-DD date: \(text.prefix(40))"))
        }
        self = day
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
