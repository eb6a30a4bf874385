extension HackerNewsGenerator {
    /// Everything: fixtures, 560 generated stories (links, Ask HN, Show HN, jobs, polls; some
    /// deleted, some dead), their comments, the big thread, the six lists and the users.
    mutating func generate() -> Output {
        addFixtures()
        addBigThread()
        var stories: [HackerNewsRecord] = []
        for index in 0..<560 {
            let id = 41_000_000 + index
            let time = now - index * 97 - random(60)
            var record: HackerNewsRecord
            let word = Self.words[index % Self.words.count]
            switch index % 20 {
            case 3, 13:
                record = HackerNewsRecord(
                    id: id, type: "story", by: author(), time: time, text: "How do you \(phrase(5))?<p>I&#x27;ve tried \(phrase(4)).",
                    title: "Ask HN: How do you \(phrase(4))?")
            case 5, 15:
                record = HackerNewsRecord(
                    id: id, type: "story", by: author(), time: time, url: "https://github.com/\(author())/\(word)-\(index)",
                    title: "Show HN: \(word.capitalized), a \(phrase(3))")
            case 7:
                record = HackerNewsRecord(
                    id: id, type: "job", by: author(), time: time, url: index % 40 == 7 ? "" : "https://jobs.example.com/\(index)",
                    title: "Example (YC S\(10 + index % 15)) is hiring a \(word) engineer")
                if record.url == "" { record.text = "We&#x27;re hiring.<p>Write to jobs@example.com" }
            case 11 where index % 100 == 11:
                let parts = (1...3).map { 44_000_000 + index * 10 + $0 }
                for (offset, part) in parts.enumerated() {
                    records[part] = HackerNewsRecord(
                        id: part, type: "pollopt", by: pollAuthor(id), time: time, text: "Option \(offset + 1): \(phrase(2))", poll: id,
                        score: random(200))
                }
                record = HackerNewsRecord(
                    id: id, type: "poll", by: pollAuthor(id), time: time, text: "", title: "Poll: Which \(word) do you use?", parts: parts)
            default:
                let host = ["nytimes.com", "www.bbc.co.uk", "arxiv.org", "blog.example.org", "lwn.net"][index % 5]
                record = HackerNewsRecord(
                    id: id, type: "story", by: author(), time: time, url: "https://\(host)/\(word)/\(index)",
                    title: "The \(phrase(3)) of \(word) (\(2000 + index % 25))")
            }
            record.score = 1 + random(900)
            if record.type != "job" {
                var kids: [Int] = []
                for _ in 0..<random(5) { kids.append(addComment(parent: id, level: 1, maxLevel: 3, time: time + 60)) }
                record.kids = kids.isEmpty ? nil : kids
            }
            if index % 50 == 19 {
                record = HackerNewsRecord(id: id, deleted: true, type: record.type, time: time, kids: record.kids)
            } else if index % 50 == 29 {
                record.dead = true
            }
            records[id] = record
            stories.append(record)
        }
        countDescendants()
        return Output(records: Array(records.values), lists: lists(stories), users: users())
    }

    /// Poll authors are fixed per poll so its options agree.
    func pollAuthor(_ id: Int) -> String { Self.authors[id % Self.authors.count] }

    mutating func addFixtures() {
        for fixture in [
            HackerNewsFixtures.dropboxStory, HackerNewsFixtures.norvigComment, HackerNewsFixtures.askStory,
            HackerNewsFixtures.job, HackerNewsFixtures.poll, HackerNewsFixtures.valleywagOption,
        ] + HackerNewsFixtures.pollOptions + HackerNewsFixtures.hostileLinks {
            records[fixture.id] = fixture
        }
        records[8863]?.kids = HackerNewsFixtures.dropboxKids
        addComments(ids: HackerNewsFixtures.dropboxKids, parent: 8863, time: 1_175_714_200)
        records[2_921_983]?.kids = HackerNewsFixtures.norvigKids
        addComments(ids: HackerNewsFixtures.norvigKids, parent: 2_921_983, time: 1_314_211_127)
        records[121_003]?.kids = HackerNewsFixtures.askKids
        addComments(ids: HackerNewsFixtures.askKids, parent: 121_003, time: 1_203_647_620)
        records[126_809]?.kids = HackerNewsFixtures.pollKids
        addComments(ids: HackerNewsFixtures.pollKids, parent: 126_809, time: 1_204_403_652)
    }

    /// Stories and polls count their comments that are neither deleted nor dead.
    mutating func countDescendants() {
        let all = records
        func count(_ ids: [Int]?) -> Int {
            (ids ?? []).reduce(0) { total, id in
                guard let record = all[id] else { return total }
                let visible = record.deleted == true || record.dead == true ? 0 : 1
                return total + visible + count(record.kids)
            }
        }
        for (id, record) in all where record.type == "story" || record.type == "poll" {
            records[id]?.descendants = count(record.kids)
        }
    }

    func lists(_ stories: [HackerNewsRecord]) -> [String: [Int]] {
        let fixtures = [8863, HackerNewsDataset.bigThreadID, 121_003, 192_327, 126_809]
        var top = fixtures + stories.prefix(495).map(\.id)
        // Two ids that answer null sit in the front page, as a vanished item would.
        top.insert(HackerNewsDataset.nullIDs[0], at: 6)
        top.insert(HackerNewsDataset.nullIDs[1], at: 40)
        top.insert(HackerNewsDataset.garbageID, at: 10)
        top = Array(top.prefix(500))
        let bigThread = records[HackerNewsDataset.bigThreadID].map { [$0] } ?? []
        var newest = (bigThread + stories).sorted { ($0.time, $0.id) > ($1.time, $1.id) }.map(\.id)
        newest.insert(HackerNewsDataset.nullIDs[0], at: 3)
        newest.insert(HackerNewsDataset.nullIDs[1], at: 30)
        let best = stories.filter { $0.type == "story" }.sorted { ($0.score ?? 0, $1.id) > ($1.score ?? 0, $0.id) }.map(\.id)
        let ask = [121_003, HackerNewsDataset.bigThreadID] + stories.filter { $0.title?.hasPrefix("Ask HN") == true }.map(\.id)
        let show = stories.filter { $0.title?.hasPrefix("Show HN") == true }.map(\.id)
        let jobs = [192_327] + stories.filter { $0.type == "job" }.map(\.id)
        return [
            "topstories": top, "newstories": Array(newest.prefix(500)), "beststories": Array(best.prefix(500)),
            "askstories": Array(ask.prefix(200)), "showstories": Array(show.prefix(200)), "jobstories": Array(jobs.prefix(200)),
        ]
    }

    func users() -> [HackerNewsUserRecord] {
        var users = HackerNewsFixtures.users
        for (index, name) in Self.authors.enumerated() {
            let submitted = records.values.filter { $0.by == name }.map(\.id).sorted(by: >).prefix(30)
            users.append(
                HackerNewsUserRecord(
                    id: name, created: 1_200_000_000 + index * 86_400 * 30, karma: 100 + index * 731,
                    about: index % 3 == 0 ? "I write about <i>\(Self.words[index])</i>.<p>https:&#x2F;&#x2F;\(name).example.com" : nil,
                    submitted: Array(submitted)))
        }
        return users
    }
}
