import Courier
import CourierSandbox
import Foundation
import HackerNewsAPI
import IntegrationTestSupport
import Testing

/// The seed's `Story` (Chapter 14, "News"): printed in its console format, sorted newest first.
@Suite("Item: the seed's console format and order")
struct ItemConsoleTests {
    @Test("debugDescription is the seed's console format: blank line, title, by author, url, five dashes")
    func consoleFormat() async throws {
        try await withHackerNews { _, hackerNews in
            let story = try #require(try await hackerNews.story(id: 8863))
            #expect(
                story.debugDescription
                    == "\nMy YC app: Dropbox - Throw away your USB drive\nby dhouston\nhttp://www.getdropbox.com/u/2/screencast.html\n-----")
            // `print(stories)` as the seed shows it: `[` then each story, `, ` between them.
            let ask = try #require(try await hackerNews.story(id: 121_003))
            #expect(String(describing: [story, ask]) == "[" + story.debugDescription + ", " + ask.debugDescription + "]")
            // No link (Ask HN), an empty one (a job): no url line.
            #expect(ask.debugDescription == "\nAsk HN: The Arc Effect\nby tel\n-----")
            let job = try #require(try await hackerNews.story(id: 192_327))
            #expect(job.debugDescription.split(separator: "\n", omittingEmptySubsequences: false).count == 4)
            #expect(Item(id: 7).debugDescription == "\n#7\n-----")
        }
    }

    @Test("a title from the network cannot drive the terminal or forge a line: controls dropped, line breaks as spaces")
    func hostileTitle() async throws {
        try await withHackerNews { _, hackerNews in
            let item = try #require(try await hackerNews.item(id: 40_000_001))
            #expect(item.title?.contains("\u{1B}") == true, "the stand-in sends the escape")
            let shown = item.debugDescription
            #expect(!shown.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) })
            #expect(shown == "\nFree ]0;pwnedkarma ----- by pg\nby mallory\njavascript:alert(document.cookie)\n-----")
        }
    }

    @Test("sorted() is newest first (time, then the larger id), the stand-in's new list order")
    func newestFirst() async throws {
        try await withHackerNews(maxStories: 60, maxConcurrent: 8) { _, hackerNews in
            let ids = Array(try await hackerNews.ids(of: .new).prefix(60))
            var stories: [Item] = []
            for await story in hackerNews.mergedStories(ids: ids) { stories.append(story) }
            #expect(stories.count > 40)
            let sorted = stories.sorted()
            // The new list is newest first: its order, without the ids that gave no story.
            #expect(sorted.map(\.id) == ids.filter { id in stories.contains { $0.id == id } })
            for (earlier, later) in zip(sorted, sorted.dropFirst()) {
                #expect((earlier.time ?? 0, earlier.id) > (later.time ?? 0, later.id))
            }
        }
    }

    @Test("the order is total and agrees with ==: ties on time by id, the same item in two states by content, no time last")
    func totalOrder() {
        let base = Item(id: 10, type: .story, by: "a", time: 100, score: 1, title: "t")
        var rescored = base
        rescored.score = 2
        let items = [
            base, rescored, Item(id: 11, time: 100), Item(id: 9, time: 100), Item(id: 1, time: 200), Item(id: 50), Item(id: 40),
            Item(id: 10, time: 100), base,
        ]
        for a in items {
            #expect(!(a < a))
            for b in items {
                let relations = [a < b, b < a, a == b].filter { $0 }.count
                #expect(relations == 1, "\(a.id)/\(a.score ?? -1) vs \(b.id)/\(b.score ?? -1)")
                for c in items where a < b && b < c { #expect(a < c) }
            }
        }
        #expect(items.sorted().map(\.id) == [1, 11, 10, 10, 10, 10, 9, 50, 40])
        #expect(items.sorted() == items.reversed().sorted())
    }
}
