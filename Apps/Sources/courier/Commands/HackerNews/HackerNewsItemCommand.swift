import ArgumentParser
import Courier
import CourierConcurrency
import Foundation
import HackerNewsAPI

/// `courier hn item ID`: an item and its whole comment tree.
struct HackerNewsItemCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "item",
        abstract: "An item and its comment tree (indented in a terminal; JSON piped or with --json).",
        discussion: """
            Comments are fetched level by level, many at once. Deleted or dead comments with replies \
            show as [deleted]; without replies they are left out. JSON: the item's fields (text as plain \
            text) with comments: [{id, by, time, text, deleted, comments}], in the API's order.
            With --open, the story's link is then opened in $BROWSER (else xdg-open/open) — only an http(s) \
            link: the API's url is whatever was submitted, and a javascript: or file: link is refused (exit 15, \
            nothing opened); an item without a link (Ask HN, a job without a url) exits with 1.
            Example: courier hn item 8863 --sandbox
            Example: courier hn item 8863 --open
            """
    )

    @Argument(help: "The item id.") var id: Int
    @Flag(name: .long, help: "Then open the story's link in $BROWSER (else xdg-open/open); only http(s) links are opened.") var open = false
    @OptionGroup var options: HackerNewsOptions

    func run() async throws {
        var link: String?
        try await options.withClient { client in
            guard let item = try await client.item(id: id) else { throw HackerNewsOptions.missing("item \(id)") }
            link = item.url.flatMap { $0.isEmpty ? nil : $0 }
            let comments = try await client.comments(of: item)
            if options.printsJSON {
                Terminal.outputJSON(try HackerNewsJSON.encode(ItemJSON(item: item, comments: comments)))
                return
            }
            let options = try await (item.parts ?? []).concurrentMap(limit: 8) { try await client.item(id: $0) }.compactMap { $0 }
            Terminal.output(composed: Self.header(item, options: options))
            var lines: [String] = []
            Self.render(comments, depth: 0, into: &lines)
            Terminal.output(lines.joined(separator: "\n"))  // outside text only: escaped on a terminal
            let count = comments.reduce(0) { $0 + $1.count }
            Terminal.error("\(count) comment\(count == 1 ? "" : "s") shown")
        }
        if open { try await LinkOpener.open(link, missing: "item \(id) has no link to open (an Ask HN, a job without a url)") }
    }

    /// Title (the host a link), details, text and poll options, for a terminal: the API's text is
    /// escaped here because the line also carries the link's escape sequences.
    static func header(_ item: Item, options: [Item]) -> String {
        var lines: [String] = []
        let title = HackerNewsTerminal.field(item.title ?? (item.type == .comment ? "comment" : "item \(item.id)"))
        lines.append(item.host.flatMap { host in item.url.map { "\(title) (\(HackerNewsTerminal.link(host, to: $0)))" } } ?? title)
        var details = [item.type?.rawValue ?? "item", "#\(item.id)"]
        if item.isDeleted { details.append("[deleted]") }
        if item.isDead { details.append("[dead]") }
        if let score = item.score { details.append("\(score) points") }
        if let by = item.by { details.append("by \(HackerNewsTerminal.field(by))") }
        details.append(HackerNewsTerminal.age(item.time))
        if let descendants = item.descendants { details.append("\(descendants) comments") }
        lines.append(details.joined(separator: " · "))
        if let text = item.plainText, !text.isEmpty { lines.append("\n" + TerminalText.escaped(text)) }
        for option in options { lines.append("  • \(TerminalText.escaped(option.plainText ?? "")) — \(option.score ?? 0) votes") }
        return lines.joined(separator: "\n") + "\n\n"
    }

    static func render(_ comments: [CommentNode], depth: Int, into lines: inout [String]) {
        let indent = String(repeating: "  ", count: depth)
        for comment in comments {
            if comment.deleted {
                lines.append(indent + "[deleted]")
            } else {
                lines.append(indent + "\(comment.by ?? "?") · \(HackerNewsTerminal.age(comment.time))")
                for line in (comment.text ?? "").split(separator: "\n", omittingEmptySubsequences: false) {
                    lines.append(line.isEmpty ? "" : indent + "  " + line)
                }
            }
            render(comment.comments, depth: depth + 1, into: &lines)
        }
    }
}

/// `courier hn item --json`: the item's fields (text as plain text) plus `comments`.
struct ItemJSON: Encodable {
    let item: Item
    let comments: [CommentNode]

    enum Keys: String, CodingKey { case comments }

    func encode(to encoder: any Encoder) throws {
        var plain = item
        plain.text = item.plainText
        try plain.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(comments, forKey: .comments)
    }
}
