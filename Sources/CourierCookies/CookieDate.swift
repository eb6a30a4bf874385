import Courier
import CourierTransportCore
import Foundation

/// RFC 6265 §5.1.1: the forgiving date format of `Expires` — tokens in any order (a time, a day,
/// a month's first three letters, a year), any delimiters between them, two-digit years mapped
/// to 1970–2069. A string without all four, or naming a date that does not exist, is no date.
enum CookieDate {
    /// The date `text` names, or nil.
    static func parse(_ text: String) -> Date? {
        var time: (Int, Int, Int)?
        var day: Int?
        var month: Int?
        var year: Int?
        for token in tokens(Array(text.utf8)) {
            if time == nil, let found = Self.time(token) {
                time = found
            } else if day == nil, let found = digits(token, 1...2) {
                day = found
            } else if month == nil, let found = Self.month(token) {
                month = found
            } else if year == nil, let found = digits(token, 2...4) {
                year = found
            }
        }
        guard let (hour, minute, second) = time, let day, let month, var year else { return nil }
        if (70...99).contains(year) { year += 1900 } else if (0...69).contains(year) { year += 2000 }
        guard (1...31).contains(day), year >= 1601, hour <= 23, minute <= 59, second <= 59 else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        // A date that does not exist (30 February) is refused, not rolled over.
        guard components.isValidDate(in: calendar) else { return nil }
        return calendar.date(from: components)
    }

    /// `delimiter = %x09 / %x20-2F / %x3B-40 / %x5B-60 / %x7B-7E`.
    private static func isDelimiter(_ byte: UInt8) -> Bool {
        byte == 0x09 || (0x20...0x2F).contains(byte) || (0x3B...0x40).contains(byte) || (0x5B...0x60).contains(byte)
            || (0x7B...0x7E).contains(byte)
    }

    private static func tokens(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        bytes.split(whereSeparator: isDelimiter)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    /// `count` digits (within `count`), then nothing or a non-digit and anything.
    private static func digits(_ token: ArraySlice<UInt8>, _ count: ClosedRange<Int>) -> Int? {
        let leading = token.prefix { isDigit($0) }
        guard count.contains(leading.count) else { return nil }
        return leading.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// `hms-time = time-field ":" time-field ":" time-field`, each 1–2 digits, then a non-digit and anything.
    private static func time(_ token: ArraySlice<UInt8>) -> (Int, Int, Int)? {
        var fields: [Int] = []
        var rest = token[...]
        for index in 0..<3 {
            let leading = rest.prefix { isDigit($0) }
            guard (1...2).contains(leading.count) else { return nil }
            fields.append(leading.reduce(0) { $0 * 10 + Int($1 - 0x30) })
            rest = rest.dropFirst(leading.count)
            if index < 2 {
                guard rest.first == UInt8(ascii: ":") else { return nil }
                rest = rest.dropFirst()
            }
        }
        if let next = rest.first, isDigit(next) { return nil }
        return (fields[0], fields[1], fields[2])
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// A token whose first three letters name a month (any case).
    private static func month(_ token: ArraySlice<UInt8>) -> Int? {
        guard token.count >= 3 else { return nil }
        let name = String(decoding: token.prefix(3), as: UTF8.self).lowercased()
        return months.firstIndex(of: name).map { $0 + 1 }
    }
}
