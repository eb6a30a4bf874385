import Courier
import Foundation
import HackerNewsAPI
import Testing

@Suite("HackerNewsAPI endpoints")
struct EndpointTests {
    @Test("every call is a GET of a .json path below the API root")
    func paths() throws {
        let expected: [(HackerNewsAPI, String)] = [
            (.item(id: 8863), "/item/8863.json"), (.topStories, "/topstories.json"), (.newStories, "/newstories.json"),
            (.bestStories, "/beststories.json"), (.askStories, "/askstories.json"), (.showStories, "/showstories.json"),
            (.jobStories, "/jobstories.json"), (.maxItem, "/maxitem.json"), (.user(id: "pg"), "/user/pg.json"), (.updates, "/updates.json"),
        ]
        for (endpoint, path) in expected {
            let request = try endpoint.httpRequest()
            #expect(request.path == path)
            #expect(request.method == .get)
        }
        #expect(
            StoryList.allCases.map { HackerNewsAPI.list($0).path } == [
                "/topstories.json", "/newstories.json", "/beststories.json", "/askstories.json", "/showstories.json", "/jobstories.json",
            ])
        #expect(HackerNewsAPI.defaultBaseURL.absoluteString == "https://hacker-news.firebaseio.com/v0/")
    }

    @Test("a user name stays one percent-encoded path segment")
    func userNameEncoding() throws {
        #expect(try HackerNewsAPI.user(id: "a/b c").httpRequest().path == "/user/a%2Fb%20c.json")
    }

    @Test("host and link: absent url and a job's empty url give none")
    func hostAndLink() {
        #expect(Item(id: 1, url: "https://www.example.com/x").host == "www.example.com")
        #expect(Item(id: 1, url: "").host == nil)
        #expect(Item(id: 1).link == nil)
    }
}
