import Foundation

/// HTTP dates (RFC 9110 §5.6.7): IMF-fixdate, the obsolete RFC 850 and asctime forms.
/// Anything else is no date (an invalid `Expires` means "already expired" to the caller).
enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// The instant `text` names, or nil when it is not an HTTP date in one of the three forms
    /// exactly (a two-digit year in IMF-fixdate, a missing comma, dashes with a four-digit year
    /// are all invalid).
    static func parse(_ text: String) -> Date? {
        let shape = Self.shape(text)
        let tokens = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "-" || $0 == ":" })
            .map { $0.lowercased() }
        let day: Int?, month: Int?, year: Int?, clock: ArraySlice<String>
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
