import Foundation
import HackerNewsAPI

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `courier hn` needs of the terminal: whether stdout is one, its size, OSC 8 links,
/// in-place redraws and relative ages. Everything the API sent is escaped (``TerminalText``)
/// before it is put beside the CLI's own escape sequences.
enum HackerNewsTerminal {
    /// stdout is a terminal (not a pipe or a file).
    static var isInteractive: Bool { isatty(STDOUT_FILENO) == 1 }

    /// Rows of the terminal (24 when unknown).
    static var rows: Int {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 else { return 24 }
        return Int(size.ws_row)
    }

    /// `text` as a terminal hyperlink to `url` (OSC 8; terminals without it show just the text),
    /// both escaped (``TerminalText/link(_:to:)``).
    static func link(_ text: String, to url: String) -> String {
        TerminalText.link(text, to: url)
    }

    /// Rows `line` takes on a terminal `columns` wide, which wraps what is wider (in cells).
    static func rows(of line: String, columns: Int) -> Int {
        let columns = max(1, columns)
        return max(1, (TerminalText.width(line) + columns - 1) / columns)
    }

    /// Moves the cursor up over `lines` rows and clears from there down.
    static func erase(lines: Int) -> String {
        lines > 0 ? "\u{1B}[\(lines)F\u{1B}[J" : ""
    }

    /// "5 minutes ago", "3 years ago" for Unix `time`, relative to `now`.
    static func age(_ time: Int?, now: Date = Date()) -> String {
        guard let time else { return "" }
        // `time` comes from the server: any Int, so the difference must not trap.
        let (difference, overflow) = Int(now.timeIntervalSince1970).subtractingReportingOverflow(time)
        let seconds = overflow ? 0 : max(0, difference)
        let (value, unit): (Int, String) =
            switch seconds {
            case ..<60: (seconds, "second")
            case ..<3600: (seconds / 60, "minute")
            case ..<86_400: (seconds / 3600, "hour")
            case ..<(86_400 * 30): (seconds / 86_400, "day")
            case ..<(86_400 * 365): (seconds / (86_400 * 30), "month")
            default: (seconds / (86_400 * 365), "year")
            }
        return "\(value) \(unit)\(value == 1 ? "" : "s") ago"
    }

    /// The page of an item on news.ycombinator.com.
    static func itemPage(_ id: Int) -> String { "https://news.ycombinator.com/item?id=\(id)" }

    /// A one-line field of the API's (a title, an author) for a terminal: escaped, and its line
    /// breaks and tabs as spaces, so it cannot forge the lines shown below it.
    static func field(_ text: String) -> String {
        TerminalText.escaped(text.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\t", with: " "))
    }

    /// The line of a story in a list: rank, title, host (a link to the story), score, author, age, comments.
    static func storyLine(_ story: RankedStory) -> String {
        let rank = String(story.rank).leftPadded(to: 3)
        var line = "\(rank). \(field(story.title ?? "(untitled)"))"
        if let host = story.host, let url = story.url { line += " (\(link(host, to: url)))" }
        var details: [String] = []
        if let score = story.score { details.append("\(score) point\(score == 1 ? "" : "s")") }
        if let by = story.by { details.append("by \(field(by))") }
        details.append(age(story.time))
        if story.type != .job {
            let comments = story.descendants ?? 0
            details.append(link("\(comments) comment\(comments == 1 ? "" : "s")", to: itemPage(story.id)))
        }
        return line + " — " + details.joined(separator: " · ")
    }
}

extension String {
    /// Right-aligned in `width` terminal cells (``TerminalText/leftPadded(_:to:)``).
    func leftPadded(to width: Int) -> String {
        TerminalText.leftPadded(self, to: width)
    }
}
