import Foundation
import SeoulCultureAPI

/// How `courier raon` prints programs.
enum RaonFormat {
    /// One line: dates, title, district, place, free/paid, id.
    static func line(_ program: CulturalProgram) -> String {
        let dates = program.startDate == program.endDate ? "\(program.startDate)             " : "\(program.startDate)~\(program.endDate)"
        return "\(dates)  \(program.title) · \(program.district) · \(program.place) · \(program.isFree ? "무료" : "유료")  [\(program.id)]"
    }

    /// The favourite mark on a terminal: `★ ` before a favourite, two spaces before the others
    /// (so the dates stay in one column); nothing when stdout is piped (`--json` has `favourite`).
    static func mark(_ favourite: Bool) -> String {
        guard TerminalText.Destination.stdout.isTerminal else { return "" }
        return favourite ? "★ " : "  "
    }

    /// The lines of `programs`, each marked as a favourite or not (``mark(_:)``) when any is one.
    static func lines(_ programs: [CulturalProgram], favourites: Set<String>) -> String {
        let marked = programs.contains { favourites.contains($0.id) }
        return programs.map { (marked ? mark(favourites.contains($0.id)) : "") + line($0) }.joined(separator: "\n")
    }

    /// Every field, and map links as terminal hyperlinks. On a terminal the API's text is escaped
    /// here (``TerminalText``), since the same lines carry the links' escape sequences.
    static func detail(_ program: CulturalProgram, favourite: Bool = false) -> String {
        let text: (String) -> String = { TerminalText.shown($0, on: .stdout) }
        let star = favourite && TerminalText.Destination.stdout.isTerminal ? "★ " : ""
        var rows: [(String, String)] = [
            ("id", text(program.id)), ("title", star + text(program.title)), ("category", text(program.category)),
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
            .map { "  \($0.0.padding(toLength: 14, withPad: " ", startingAt: 0))\($0.1.replacingOccurrences(of: "\n", with: " "))" }
            .joined(separator: "\n")
    }

    /// Naver and Kakao map links and public-transit routes for the coordinates (when known), and
    /// a web search for the place.
    ///
    /// The routes are the services' web route pages with the program as the destination and no
    /// start (the page asks, or takes the user's position): Naver's `directions/-/{lng},{lat},{name}/-/transit`
    /// opens on public transit; Kakao's `link/to/{name},{lat},{lng}` opens its route search to
    /// the place, where 대중교통 is one tap (Kakao's web links name a transit route only between
    /// two given points, `link/by/traffic/{from}/{to}`).
    static func mapLinks(_ program: CulturalProgram) -> [(String, URL?)] {
        let place =
            program.place.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=+,/?"))) ?? ""
        var links: [(String, URL?)] = []
        if let latitude = program.latitude, let longitude = program.longitude {
            links.append(("naver map", URL(string: "https://map.naver.com/?lat=\(latitude)&lng=\(longitude)&title=\(place)")))
            links.append(("kakao map", URL(string: "https://map.kakao.com/link/map/\(place),\(latitude),\(longitude)")))
            // A name in a path segment: everything but unreserved characters encoded (a `,` or `/`
            // in the place would split the point).
            let name = program.place.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
            links.append(("naver transit", URL(string: "https://map.naver.com/p/directions/-/\(longitude),\(latitude),\(name)/-/transit")))
            links.append(("kakao route", URL(string: "https://map.kakao.com/link/to/\(name),\(latitude),\(longitude)")))
        }
        links.append(("search place", URL(string: "https://search.naver.com/search.naver?query=\(place)")))
        return links
    }

    /// RFC 3986's unreserved characters: letters, digits, `-._~`.
    static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// The data's source, to name where programs are shown: Seoul Open Data, the dataset, its page.
    static var source: String { CulturalEventAPI.Source.credit }

    /// The homepage as `list --json` gives it and `show --open` opens it: the link as the data
    /// has it, when it is a URL.
    static func homepage(_ program: CulturalProgram) -> String? {
        program.homepage == nil ? nil : program.homepageLink
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
        var favourite: Bool

        init(_ p: CulturalProgram, favourite: Bool = false) {
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
            homepage = RaonFormat.homepage(p)
            imageURL = p.imageURL?.absoluteString
            organization = p.organization
            target = p.target
            self.favourite = favourite
        }
    }

    /// `programs` as `list --json` writes them, each `favourite` when its id is in `favourites`.
    static func json(_ programs: [CulturalProgram], favourites: Set<String>) -> String {
        json(programs.map { Output($0, favourite: favourites.contains($0.id)) })
    }

    /// `program` as `show --json` writes it.
    static func json(_ program: CulturalProgram, favourite: Bool) -> String { json(Output(program, favourite: favourite)) }

    static func json(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }
}
