/// Makes the stand-in's generated items from a fixed seed (SplitMix64), so every run serves
/// the same data.
struct HackerNewsGenerator {
    struct Output {
        var records: [HackerNewsRecord]
        var lists: [String: [Int]]
        var users: [HackerNewsUserRecord]
    }

    var generator = SplitMix(state: 12)
    var records: [Int: HackerNewsRecord] = [:]
    var nextCommentID = 43_000_000
    /// Newest generated time (2025-11-23).
    let now = 1_763_880_000

    static let authors = [
        "ada", "bwk", "dmr", "grace", "kay", "lamport", "liskov", "mccarthy", "hopper", "knuth",
        "wirth", "ritchie", "thompson", "hoare", "dijkstra", "backus", "minsky", "engelbart", "cerf", "kahn",
    ]
    static let words = [
        "swift", "server", "latency", "cache", "compiler", "database", "network", "async", "thread",
        "kernel", "terminal", "editor", "protocol", "packet", "queue", "index", "query", "vector", "linux", "release",
    ]

    mutating func random(_ bound: Int) -> Int { generator.below(bound) }

    mutating func author() -> String { Self.authors[random(Self.authors.count)] }

    mutating func phrase(_ count: Int) -> String {
        (0..<count).map { _ in Self.words[random(Self.words.count)] }.joined(separator: " ")
    }

    /// A comment's HTML, using what HN's HTML has: paragraphs, links, `<i>`, entities, code.
    mutating func commentHTML(_ id: Int) -> String {
        var text = "I&#x27;d say \(phrase(6 + random(8))) &amp; \(phrase(3))."
        switch id % 7 {
        case 0: text += "<p>See <a href=\"https:&#x2F;&#x2F;example.com&#x2F;\(id)\" rel=\"nofollow\">https:&#x2F;&#x2F;example.com&#x2F;\(id)</a>"
        case 1: text += "<p><i>\(phrase(2))</i> is &quot;\(phrase(2))&quot; &gt; \(phrase(1))"
        case 2: text += "<p><pre><code>  let \(Self.words[id % 20]) = \(id % 100)\n  print(\(Self.words[id % 20]))\n</code></pre>"
        default: break
        }
        return text
    }

    /// Adds comment `id` under `parent` at `level` with replies down to `maxLevel`; returns its id.
    mutating func addComment(parent: Int, level: Int, maxLevel: Int, time: Int) -> Int {
        let id = nextCommentID
        nextCommentID += 1
        var kids: [Int] = []
        if level < maxLevel {
            for _ in 0..<random(level == 1 ? 3 : 2) { kids.append(addComment(parent: id, level: level + 1, maxLevel: maxLevel, time: time + 60)) }
        }
        records[id] = comment(id: id, parent: parent, time: time + random(3600), kids: kids)
        return id
    }

    mutating func comment(id: Int, parent: Int, time: Int, kids: [Int]) -> HackerNewsRecord {
        var record = HackerNewsRecord(
            id: id, type: "comment", by: author(), time: time, text: commentHTML(id), parent: parent, kids: kids.isEmpty ? nil : kids)
        if id % 37 == 0 {
            record.deleted = true
            record.by = nil
            record.text = nil
        } else if id % 53 == 0 {
            record.dead = true
        }
        return record
    }

    /// Comments with the given ids (the fixtures' real kid ids) under `parent`, with generated replies.
    mutating func addComments(ids: [Int], parent: Int, time: Int) {
        for id in ids {
            var kids: [Int] = []
            for _ in 0..<random(3) { kids.append(addComment(parent: id, level: 2, maxLevel: 3, time: time + 120)) }
            records[id] = comment(id: id, parent: parent, time: time + 60 + random(600), kids: kids)
        }
    }

    /// The big thread: 1,200 comments on six levels, each reply under a random comment of the level above.
    mutating func addBigThread() {
        let levelSizes = [80, 300, 400, 250, 120, 50]
        let time = now - 7200
        var above: [Int] = [HackerNewsDataset.bigThreadID]
        var kidsOf: [Int: [Int]] = [:]
        var parentOf: [Int: Int] = [:]
        for size in levelSizes {
            var level: [Int] = []
            for index in 0..<size {
                let id = nextCommentID
                nextCommentID += 1
                // The first comment of each level hangs under the first of the level above: one chain goes all the way down.
                let parent = index == 0 ? above[0] : above[random(above.count)]
                kidsOf[parent, default: []].append(id)
                parentOf[id] = parent
                level.append(id)
            }
            above = level
        }
        for (id, parent) in parentOf {
            records[id] = comment(id: id, parent: parent, time: time + (id - 43_000_000), kids: kidsOf[id] ?? [])
        }
        records[HackerNewsDataset.bigThreadID] = HackerNewsRecord(
            id: HackerNewsDataset.bigThreadID, type: "story", by: "lamport", time: time,
            text: "A stand-in thread of 1,200 comments, six levels deep.<p>What&#x27;s the largest thread you&#x27;ve read?",
            kids: kidsOf[HackerNewsDataset.bigThreadID], score: 1200, title: "Ask HN: The big thread"
        )
    }
}
