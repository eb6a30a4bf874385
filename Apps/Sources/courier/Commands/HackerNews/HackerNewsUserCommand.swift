import ArgumentParser
import Courier
import Foundation
import HackerNewsAPI

/// `courier hn user NAME`: a user's profile.
struct HackerNewsUserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user",
        abstract: "A user's profile (names are case-sensitive).",
        discussion:
            "JSON fields: id, created (Unix seconds), karma, about (plain text or null), submitted (ids, newest first).\nExample: courier hn user pg --sandbox"
    )

    @Argument(help: "The user name.") var name: String
    @OptionGroup var options: HackerNewsOptions

    func validate() throws {
        guard !name.isEmpty, !name.contains("/") else { throw ValidationError("NAME must be a user name such as pg") }
    }

    func run() async throws {
        try await options.withClient { client in
            guard var user = try await client.user(id: name) else { throw HackerNewsOptions.missing("user \(name)") }
            user.about = user.about.map(HTMLText.plainText)
            if options.printsJSON {
                Terminal.outputJSON(try HackerNewsJSON.encode(UserJSON(user: user)))
                return
            }
            let created = Date(timeIntervalSince1970: TimeInterval(user.created))
            var lines = [
                "\(user.id) · karma \(user.karma) · joined \(created.formatted(.iso8601.year().month().day())) (\(HackerNewsTerminal.age(user.created)))"
            ]
            if let about = user.about, !about.isEmpty { lines.append("\n" + about + "\n") }
            lines.append("\(user.submitted?.count ?? 0) submissions" + (user.submitted?.first.map { ", latest #\($0)" } ?? ""))
            Terminal.output(lines.joined(separator: "\n"))  // the profile's text: escaped on a terminal
        }
    }
}

/// A user with every field present (`null` when absent).
struct UserJSON: Encodable {
    let user: User

    enum Keys: String, CodingKey { case id, created, karma, about, submitted }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(user.id, forKey: .id)
        try container.encode(user.created, forKey: .created)
        try container.encode(user.karma, forKey: .karma)
        try container.encode(user.about, forKey: .about)
        try container.encode(user.submitted ?? [], forKey: .submitted)
    }
}
