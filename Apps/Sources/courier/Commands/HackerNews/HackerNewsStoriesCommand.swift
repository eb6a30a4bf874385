import ArgumentParser
import Courier
import Foundation
import HackerNewsAPI

/// `courier hn stories`: a story list, growing live in a terminal as stories arrive.
struct HackerNewsStoriesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stories",
        abstract: "A story list; in a terminal it grows as stories arrive, piped (or --json) it is the final JSON array.",
        discussion: """
            --limit N takes the first N ids of the list; an id that answers null, is deleted or dead, or \
            fails is skipped (not replaced) and the command still succeeds. `new` is shown newest first \
            by time, the other lists in their rank order. JSON fields per story: id, rank, title, by, \
            time (Unix seconds), url (null when absent), host, score, descendants, type, text (plain text).
            Example: courier hn stories --list ask --limit 10 --sandbox
            """
    )

    @Option(name: .long, help: "top, new, best, ask, show or job.") var list: String = "top"
    @Option(name: .long, help: "How many ids of the list to fetch (1…500).") var limit: Int = 30
    @OptionGroup var options: HackerNewsOptions

    func validate() throws {
        guard StoryList(rawValue: list) != nil else {
            throw ValidationError("--list must be one of: \(StoryList.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard (1...500).contains(limit) else { throw ValidationError("--limit must be 1…500") }
    }

    func run() async throws {
        let list = StoryList(rawValue: list) ?? .top
        let json = options.printsJSON
        try await options.withClient(maxStories: limit) { client in
            var final: [RankedStory] = []
            var drawn = 0
            let visible = max(1, HackerNewsTerminal.rows - 2)
            let columns = Terminal.columns
            for try await stories in client.stories(list: list) {
                final = stories
                guard !json else { continue }
                // Redraw in place what fits on the screen; the whole list comes at the end. A
                // title longer than the screen is wide takes more than one row, and the cursor
                // can only be moved back over rows that are still on the screen.
                var lines: [String] = []
                var rows = 0
                for story in stories {
                    let line = HackerNewsTerminal.storyLine(story)
                    let needed = HackerNewsTerminal.rows(of: line, columns: columns)
                    guard rows + needed <= visible else { break }
                    lines.append(line)
                    rows += needed
                }
                guard !lines.isEmpty else { continue }  // not even the first fits: keep what is shown
                Terminal.write(HackerNewsTerminal.erase(lines: drawn) + lines.joined(separator: "\n") + "\n", to: STDOUT_FILENO)
                drawn = rows
            }
            if json {
                Terminal.outputJSON(try HackerNewsJSON.encode(final.map(StoryJSON.init)))
            } else {
                let lines = final.map(HackerNewsTerminal.storyLine)
                Terminal.write(HackerNewsTerminal.erase(lines: drawn) + lines.joined(separator: "\n") + "\n", to: STDOUT_FILENO)
                Terminal.error("\(final.count) of the first \(limit) \(list.rawValue) stories")
            }
        }
    }
}

/// A story as `courier hn stories --json` prints it: every field present, `null` when absent.
struct StoryJSON: Encodable {
    let story: RankedStory

    init(_ story: RankedStory) { self.story = story }

    enum Keys: String, CodingKey {
        case id, rank, title, by, time, url, host, score, descendants, type, text
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(story.id, forKey: .id)
        try container.encode(story.rank, forKey: .rank)
        try container.encode(story.title, forKey: .title)
        try container.encode(story.by, forKey: .by)
        try container.encode(story.time, forKey: .time)
        try container.encode(story.link?.absoluteString, forKey: .url)
        try container.encode(story.host, forKey: .host)
        try container.encode(story.score, forKey: .score)
        try container.encode(story.descendants, forKey: .descendants)
        try container.encode(story.type?.rawValue, forKey: .type)
        try container.encode(story.plainText, forKey: .text)
    }
}

/// JSON as `courier hn` prints it: pretty, keys sorted, slashes as they are.
enum HackerNewsJSON {
    static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
