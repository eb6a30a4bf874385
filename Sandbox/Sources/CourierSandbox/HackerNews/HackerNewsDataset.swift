import Foundation

/// The Hacker News stand-in's bundled data: the documentation's real examples plus a few
/// hundred generated stories of every type (deterministic: the same on every run), deleted and
/// dead items, ids that answer `null`, and one thread of 1,200 comments six levels deep.
///
/// Made once per process and shared by every sandbox (it never changes).
struct HackerNewsDataset: Sendable {
    /// Each item's JSON.
    let items: [Int: Data]
    /// Each list's ids by file name (`topstories` …).
    let lists: [String: [Int]]
    /// Each user's JSON.
    let users: [String: Data]
    let maxItem: Int
    let updates: Data

    /// The story with the 1,200-comment thread.
    static let bigThreadID = 42_000_000
    /// Ids in the lists that answer `null`.
    static let nullIDs = [41_000_990, 41_000_991]
    /// An id in the front page whose answer is not JSON (a failing fetch).
    static let garbageID = 41_000_998
    static let garbage = Data("{\"id\": \"not a number\", ".utf8)

    static let shared: HackerNewsDataset = {
        var generator = HackerNewsGenerator()
        return HackerNewsDataset(generator.generate())
    }()

    init(_ generated: HackerNewsGenerator.Output) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var items: [Int: Data] = [:]
        for record in generated.records {
            items[record.id] = (try? encoder.encode(record)) ?? Data("null".utf8)
        }
        var users: [String: Data] = [:]
        for user in generated.users {
            users[user.id] = (try? encoder.encode(user)) ?? Data("null".utf8)
        }
        items[Self.garbageID] = Self.garbage
        self.items = items
        self.users = users
        self.lists = generated.lists
        self.maxItem = items.keys.max() ?? 0
        let recent = generated.lists["newstories"].map { Array($0.prefix(20)) } ?? []
        let changes = HackerNewsUpdatesRecord(items: recent, profiles: generated.users.prefix(5).map(\.id))
        self.updates = (try? encoder.encode(changes)) ?? Data("{}".utf8)
    }
}
