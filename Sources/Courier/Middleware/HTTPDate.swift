package import Foundation

/// HTTP dates (RFC 9110 §5.6.7): IMF-fixdate, the obsolete RFC 850 and asctime forms.
/// Anything else is no date (an invalid `Expires` means "already expired" to the caller).
package enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    /// The month names' three letters packed in an integer each, for the fast path.
    private static let monthCodes: [UInt32] = months.map { $0.utf8.reduce(0) { $0 << 8 | UInt32($1) } }

    /// The instant `text` names, or nil when it is not an HTTP date in one of the three forms
    /// exactly (a two-digit year in IMF-fixdate, a missing comma, dashes with a four-digit year
    /// are all invalid).
    package static func parse(_ text: String) -> Date? {
        if let date = parseFixdate(text) { return date }
        let shape = Self.shape(text)
        let tokens = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "-" || $0 == ":" })
            .map { $0.lowercased() }
        let day: Int?
        let month: Int?
        let year: Int?
        let clock: ArraySlice<String>
        switch shape {
        case "A, 99 A 9999 99:99:99 A", "A, 99-A-99 99:99:99 A":  // IMF-fixdate, RFC 850
            guard tokens[7] == "gmt" else { return nil }
            day = Int(tokens[1])
            month = months.firstIndex(of: tokens[2])
            guard let value = Int(tokens[3]) else { return nil }
            year = tokens[3].count == 2 ? (value < 70 ? 2000 + value : 1900 + value) : value
            clock = tokens[4...6]
        case "A A 99 99:99:99 9999", "A A  9 99:99:99 9999":  // asctime
            month = months.firstIndex(of: tokens[1])
            day = Int(tokens[2])
            year = Int(tokens[6])
            clock = tokens[3...5]
        default:
            return nil
        }
        let parts = clock.map { $0.count == 2 ? Int($0) : nil }
        guard let day, let month, let year, (1...31).contains(day),
            let hour = parts[0], let minute = parts[1], let second = parts[2],
            hour < 24, minute < 60, second < 61
        else { return nil }
        let days = daysFromCivil(year: year, month: month + 1, day: day)
        return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }

    /// The common case without allocating: an IMF-fixdate of exactly 29 bytes,
    /// `Sun, 06 Nov 1994 08:49:37 GMT` (case-insensitive letters, as the general path). Nil for
    /// anything else, which the general path then decides.
    private static func parseFixdate(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { bytes -> Date? in
            guard bytes.count == 29, bytes[3] == 0x2C, bytes[4] == 0x20, bytes[7] == 0x20, bytes[11] == 0x20, bytes[16] == 0x20,
                bytes[19] == 0x3A, bytes[22] == 0x3A, bytes[25] == 0x20
            else { return nil }
            func letter(_ index: Int) -> UInt8? {
                let byte = bytes[index] | 0x20
                return byte >= 0x61 && byte <= 0x7A ? byte : nil
            }
            func number(_ from: Int, _ count: Int) -> Int? {
                var value = 0
                for index in from..<(from + count) {
                    let digit = Int(bytes[index]) - 0x30
                    guard (0...9).contains(digit) else { return nil }
                    value = value * 10 + digit
                }
                return value
            }
            guard letter(0) != nil, letter(1) != nil, letter(2) != nil,
                letter(26) == 0x67, letter(27) == 0x6D, letter(28) == 0x74,  // gmt
                let m0 = letter(8), let m1 = letter(9), let m2 = letter(10),
                let month = monthCodes.firstIndex(of: UInt32(m0) << 16 | UInt32(m1) << 8 | UInt32(m2)),
                let day = number(5, 2), let year = number(12, 4),
                let hour = number(17, 2), let minute = number(20, 2), let second = number(23, 2),
                (1...31).contains(day), hour < 24, minute < 60, second < 61
            else { return nil }
            let days = daysFromCivil(year: year, month: month + 1, day: day)
            return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3_600 + minute * 60 + second))
        }
    }

    /// `text` with each run of letters as `A` and each digit as `9`.
    private static func shape(_ text: String) -> String {
        var shape = ""
        for character in text {
            if character.isASCII, character.isLetter {
                if shape.last != "A" { shape.append("A") }
            } else if character.isASCIIDigitCharacter {
                shape.append("9")
            } else {
                shape.append(character)
            }
        }
        return shape
    }

    /// Days since 1970-01-01 (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}

extension Character {
    /// 0–9 only (not other Unicode digits).
    package var isASCIIDigitCharacter: Bool { asciiValue.map { $0 >= 0x30 && $0 <= 0x39 } ?? false }
}
