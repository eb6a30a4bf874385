public import Foundation

/// Programs as an RFC 5545 calendar that calendar apps import: one all-day event per program
/// (`DTSTART;VALUE=DATE`, exclusive `DTEND` the day after the last), text escaped, lines folded
/// at 75 octets without splitting a UTF-8 character, CRLF line ends, a stable `UID` per program;
/// with an ``Alarm``, a `VALARM` in each event so the calendar app reminds.
///
/// ```swift
/// try ICalendarExport.document(for: favourites, alarm: .init("1d")).write(to: url, atomically: true, encoding: .utf8)
/// ```
public enum ICalendarExport {
    /// The whole `VCALENDAR`; `stamp` is the `DTSTAMP` (when the file was made); `alarm`, when
    /// given, adds a reminder that long before each event's start.
    public static func document(for programs: [CulturalProgram], stamp: Date = Date(), alarm: Alarm? = nil) -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Courier//Raon Seoul culture//KO", "CALSCALE:GREGORIAN", "METHOD:PUBLISH"]
        let dtstamp = utcStamp(stamp)
        for program in programs {
            lines += [
                "BEGIN:VEVENT", "UID:\(program.id)@raon.courier", "DTSTAMP:\(dtstamp)",
                "DTSTART;VALUE=DATE:\(program.startDate.basicFormat)", "DTEND;VALUE=DATE:\(program.endDate.adding(days: 1).basicFormat)",
                "SUMMARY:\(escape(program.title))",
                "LOCATION:\(escape([program.place, program.district].filter { !$0.isEmpty }.joined(separator: ", ")))",
            ]
            let description = [program.category, program.isFree ? "무료" : "유료 \(program.fee)", program.time, program.notes]
                .filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.joined(separator: "\n")
            lines.append("DESCRIPTION:\(escape(description))")
            if !program.category.isEmpty { lines.append("CATEGORIES:\(escape(program.category))") }
            if let latitude = program.latitude, let longitude = program.longitude { lines.append("GEO:\(latitude);\(longitude)") }
            if let homepage = program.homepage { lines.append("URL:\(homepage.absoluteString)") }
            if let alarm { lines += alarm.lines(summary: escape(program.title)) }
            lines.append("END:VEVENT")
        }
        lines.append("END:VCALENDAR")
        return lines.map(fold).joined(separator: "\r\n") + "\r\n"
    }

    /// TEXT escaping: `\` `;` `,` and line breaks.
    public static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "\\": result += "\\\\"
            case ";": result += "\\;"
            case ",": result += "\\,"
            case "\r\n", "\n", "\r": result += "\\n"
            default: result.append(character)
            }
        }
        return result
    }

    /// Folds `line` so no physical line exceeds 75 octets (continuations start with a space,
    /// which counts), breaking only between Unicode scalars so no UTF-8 sequence is split.
    public static func fold(_ line: String) -> String {
        var output = ""
        var octets = 0
        for scalar in line.unicodeScalars {
            let size = String(scalar).utf8.count
            if octets + size > 75 {
                output += "\r\n "
                octets = 1
            }
            output.unicodeScalars.append(scalar)
            octets += size
        }
        return output
    }

    private static func utcStamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        let p = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String {
            let v = value ?? 0
            return v < 10 ? "0\(v)" : "\(v)"
        }
        return "\(p.year ?? 1970)\(two(p.month))\(two(p.day))T\(two(p.hour))\(two(p.minute))\(two(p.second))Z"
    }
}
