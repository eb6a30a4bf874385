import Courier
import CourierSandbox
import Foundation
import HackerNewsAPI
import IntegrationTestSupport
import Testing

@Suite("Hacker News items over real sockets")
struct ItemDecodingTests {
    @Test("the documentation's story 8863 decodes with its link, host and replies")
    func story() async throws {
        try await withHackerNews { _, hackerNews in
            let story = try #require(try await hackerNews.story(id: 8863))
            #expect(story.type == .story)
            #expect(story.by == "dhouston")
            #expect(story.title == "My YC app: Dropbox - Throw away your USB drive")
            #expect(story.host == "www.getdropbox.com")
            #expect(story.time == 1_175_714_200)
            #expect((story.kids ?? []).isEmpty == false)
            #expect((story.descendants ?? 0) > 0)
        }
    }

    @Test("comment 2921983 decodes with its parent and its text as plain text")
    func comment() async throws {
        try await withHackerNews { _, hackerNews in
            let comment = try #require(try await hackerNews.item(id: 2_921_983))
            #expect(comment.type == .comment)
            #expect(comment.by == "norvig")
            #expect(comment.parent == 2_921_506)
            #expect(
                comment.plainText
                    == "Aw shucks, guys ... you make me blush with your compliments.\n\nTell you what, Ill make a deal: I'll keep writing if you keep reading. K?"
            )
        }
    }

    @Test("Ask HN 121003 has text and no url; job 192327's empty url is no link")
    func askAndJob() async throws {
        try await withHackerNews { _, hackerNews in
            let ask = try #require(try await hackerNews.story(id: 121_003))
            #expect(ask.title == "Ask HN: The Arc Effect")
            #expect(ask.url == nil)
            #expect(ask.host == nil)
            #expect(ask.plainText?.hasPrefix("or HN: the Next Iteration\n\nI get the impression") == true)
            let job = try #require(try await hackerNews.story(id: 192_327))
            #expect(job.type == .job)
            #expect(job.url == "")
            #expect(job.link == nil)
            #expect(job.host == nil)
            #expect(job.plainText?.contains("Responsibilities\n\n    * Contribute to product design") == true)
        }
    }

    @Test("poll 126809 and its options decode, as does pollopt 160705")
    func pollAndOptions() async throws {
        try await withHackerNews { _, hackerNews in
            let poll = try #require(try await hackerNews.item(id: 126_809))
            #expect(poll.type == .poll)
            #expect(poll.parts == [126_810, 126_811, 126_812])
            for part in poll.parts ?? [] {
                let option = try #require(try await hackerNews.item(id: part))
                #expect(option.type == .pollOption)
                #expect(option.poll == 126_809)
            }
            let valleywag = try #require(try await hackerNews.item(id: 160_705))
            #expect(valleywag.type == .pollOption)
            #expect(valleywag.plainText == "Yes, ban them; I'm tired of seeing Valleywag stories on News.YC.")
        }
    }

    @Test("a missing id answers null: item and story are nil, not an error")
    func missing() async throws {
        try await withHackerNews { _, hackerNews in
            let value1 = try await hackerNews.item(id: StandIn.missing)
            #expect(value1 == nil)
            let value2 = try await hackerNews.story(id: StandIn.missing)
            #expect(value2 == nil)
            let value3 = try await hackerNews.story(id: -5)
            #expect(value3 == nil)
        }
    }

    @Test("a deleted item has no by and no text, a dead one keeps by; story(id:) gives nil for both")
    func deletedAndDead() async throws {
        try await withHackerNews { _, hackerNews in
            let deleted = try #require(try await hackerNews.item(id: StandIn.deletedStory))
            #expect(deleted.isDeleted)
            #expect(deleted.by == nil && deleted.text == nil)
            let dead = try #require(try await hackerNews.item(id: StandIn.deadStory))
            #expect(dead.isDead)
            #expect(dead.by != nil)
            let value4 = try await hackerNews.story(id: StandIn.deletedStory)
            #expect(value4 == nil)
            let value5 = try await hackerNews.story(id: StandIn.deadStory)
            #expect(value5 == nil)
        }
    }

    @Test("users decode; a missing user is nil; lists, maxitem and updates answer")
    func usersAndLists() async throws {
        try await withHackerNews { _, hackerNews in
            let pg = try #require(try await hackerNews.user(id: "pg"))
            #expect(pg.created == 1_160_418_092)
            #expect(pg.submitted?.contains(126_809) == true)
            let value6 = try await hackerNews.user(id: "no-such-user-xyz")
            #expect(value6 == nil)
            let top = try await hackerNews.ids(of: .top)
            #expect(top.count == 500)
            #expect(top.first == 8863)
            for list in StoryList.allCases {
                let value7 = try await hackerNews.ids(of: list).isEmpty
                #expect(value7 == false, "\(list)")
            }
            let value8 = try await hackerNews.maxItem()
            #expect(value8 >= StandIn.bigThread)
            let value9 = try await hackerNews.updates().items
            #expect(value9.isEmpty == false)
        }
    }
}
