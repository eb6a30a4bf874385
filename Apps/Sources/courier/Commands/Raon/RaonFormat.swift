import Foundation
import SeoulCultureAPI

/// How `courier raon` prints programs.
enum RaonFormat {
    /// One line: dates, title, district, place, free/paid, id.
    static func line(_ program: CulturalProgram) -> String {
        let dates = program.startDate == program.endDate ? "\(program.startDate)             " : "\(program.startDate)~\(program.endDate)"
        return "\(dates)  \(program.title) · \(program.district) · \(program.place) · \(program.isFree ? "무료" : "유료")  [\(program.id)]"
    }

    /// Every field, and map links as terminal hyperlinks. On a terminal the API's text is escaped
    /// here (``TerminalText``), since the same lines carry the links' escape sequences.
    static func detail(_ program: CulturalProgram) -> String {
        let text: (String) -> String = { TerminalText.shown($0, on: .stdout) }
        var rows: [(String, String)] = [
            ("id", text(program.id)), ("title", text(program.title)), ("category", text(program.category)),
            ("district", text(program.district)), ("place", text(program.place)), ("dates", "\(program.startDate) ~ \(program.endDate)"),
            ("free", program.isFree ? "무료 (free)" : "유료 (paid)"), ("fee", text(program.fee)), ("time", text(program.time)),
            ("target", text(program.target)), ("organization", text(program.organization)), ("player", text(program.player)),
            ("program", text(program.program)), ("inquiry", text(program.inquiry)), ("ticket", text(program.ticket)), ("notes", text(program.notes)),
            ("homepage", link(program.homepage)), ("ticket page", link(program.ticketURL)), ("image", link(program.imageURL)),
        ]
        if let latitude = program.latitude, let longitude = program.longitude {
            rows.append(("coordinates", "\(latitude), \(longitude)"))
        } else {
            rows.append(("coordinates", "(none in the data)"))
        }
        for (name, url) in mapLinks(program) { rows.append((name, link(url))) }
        return rows.filter { !$0.1.isEmpty }
            .map { "  \($0.0.padding(toLength: 13, withPad: " ", startingAt: 0))\($0.1.replacingOccurrences(of: "\n", with: " "))" }
            .joined(separator: "\n")
    }

    /// Naver and Kakao map links for the coordinates (when known) and a web search for the place.
    static func mapLinks(_ program: CulturalProgram) -> [(String, URL?)] {
        let place =
            program.place.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=+,/?"))) ?? ""
        var links: [(String, URL?)] = []
        if let latitude = program.latitude, let longitude = program.longitude {
            links.append(("naver map", URL(string: "https://map.naver.com/?lat=\(latitude)&lng=\(longitude)&title=\(place)")))
            links.append(("kakao map", URL(string: "https://map.kakao.com/link/map/\(place),\(latitude),\(longitude)")))
        }
        links.append(("search place", URL(string: "https://search.naver.com/search.naver?query=\(place)")))
        return links
    }

    /// `url` as an OSC 8 hyperlink on a terminal (escaped, ``TerminalText/link(_:to:)``), plain text otherwise.
    static func link(_ url: URL?) -> String {
        guard let url else { return "" }
        let text = url.absoluteString
        return TerminalText.Destination.stdout.isTerminal ? TerminalText.link(text, to: text) : text
    }

    /// A month grid, Sunday first, with the number of programs on each day (`*` marks today).
    static func calendar(_ counts: [SeoulDay: Int], year: Int, month: Int, today: SeoulDay) -> String {
        guard let first = SeoulDay(year: year, month: month, day: 1) else { return "" }
        var lines = ["\(first.description.prefix(7)): programs running each day (* today)", " Sun   Mon   Tue   Wed   Thu   Fri   Sat"]
        var cells = Array(repeating: "      ", count: first.weekday - 1)
        for day in 1...SeoulDay.daysIn(month: month, year: year) {
            guard let date = SeoulDay(year: year, month: month, day: day) else { continue }
            let mark = date == today ? "*" : " "
            let count = String(counts[date] ?? 0)
            cells.append((day < 10 ? " " : "") + "\(day)\(mark)" + count.padding(toLength: 3, withPad: " ", startingAt: 0))
        }
        while !cells.isEmpty {
            lines.append(cells.prefix(7).joined())
            cells = Array(cells.dropFirst(7))
        }
        return lines.joined(separator: "\n")
    }

    /// JSON of a program: the fields `list --json` promises.
    struct Output: Encodable {
        var id, title, category, district, place, startDate, endDate: String
        var isFree: Bool
        var fee: String
        var latitude, longitude: Double?
        var homepage, imageURL: String?
        var organization, target: String

        init(_ p: CulturalProgram) {
            id = p.id
            title = p.title
            category = p.category
            district = p.district
            place = p.place
            startDate = p.startDate.description
            endDate = p.endDate.description
            isFree = p.isFree
            fee = p.fee
            latitude = p.latitude
            longitude = p.longitude
            homepage = p.homepage?.absoluteString
            imageURL = p.imageURL?.absoluteString
            organization = p.organization
            target = p.target
        }
    }

    static func json(_ programs: [CulturalProgram]) -> String { json(programs.map(Output.init)) }
    static func json(_ program: CulturalProgram) -> String { json(Output(program)) }

    static func json(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }
}
