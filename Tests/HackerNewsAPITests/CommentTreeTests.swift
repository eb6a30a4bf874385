import Courier
import CourierSandbox
import Foundation
import HackerNewsAPI
import IntegrationTestSupport
import Synchronization
import Testing

@Suite("comments(of:) over real sockets")
struct CommentTreeTests {
    @Test("the 1,200-comment thread comes whole, breadth-first and bounded, in kids order")
    func bigThread() async throws {
        try await withHackerNews(maxConcurrent: 16) { sandbox, hackerNews in
            let root = try #require(try await hackerNews.item(id: StandIn.bigThread))
            try await setLatency(10, on: sandbox)  // so fetches overlap on the server
            let levels = Mutex<[[CommentNode]]>([])
            let tree = try await hackerNews.comments(of: root) { soFar in levels.withLock { $0.append(soFar) } }
            let total = tree.reduce(0) { $0 + $1.count }
            #expect(total >= 1_000)
            #expect(tree.map(\.depth).max() == 6)
            // Top-level comments keep the API's order.
            let kids = root.kids ?? []
            #expect(tree.map(\.id) == kids.filter { tree.map(\.id).contains($0) })
            // One level at a time: the first report holds top-level comments without replies yet.
            let first = try #require(levels.withLock { $0.first })
            #expect(!first.isEmpty && first.allSatisfy { $0.comments.isEmpty })
            #expect(levels.withLock { $0.count } == 6)
            let stats = try await stats(of: sandbox)
            #expect(stats.maxInFlight <= 16)
            #expect(stats.maxInFlight >= 4, "fetches ran concurrently")
            #expect(stats.itemRequests == 1 + 1_200)
        }
    }

    @Test("deleted or dead comments with replies stay as placeholders; without replies they are left out")
    func placeholders() async throws {
        try await withHackerNews { _, hackerNews in
            let tree = try await hackerNews.comments(of: StandIn.bigThread)
            var placeholders = 0
            var visible = 0
            func walk(_ comments: [CommentNode]) {
                for comment in comments {
                    if comment.deleted {
                        placeholders += 1
                        #expect(comment.text == nil && comment.by == nil)
                        #expect(!comment.comments.isEmpty, "a placeholder has replies")
                    } else {
                        visible += 1
                        #expect(comment.by != nil && comment.text != nil)
                    }
                    walk(comment.comments)
                }
            }
            walk(tree)
            #expect(placeholders > 0)
            // Every deleted (id % 37) or dead (id % 53) comment is either a placeholder or gone.
            let root = try #require(try await hackerNews.item(id: StandIn.bigThread))
            #expect(visible == root.descendants)
        }
    }

    @Test("text is plain text; an item without comments or a missing one gives an empty tree")
    func textAndEmpty() async throws {
        try await withHackerNews { _, hackerNews in
            let tree = try await hackerNews.comments(of: 8863)
            #expect(tree.map(\.id).allSatisfy { [8952, 9224, 8917, 8884, 8887, 8943, 8869, 8958, 9005, 9671].contains($0) })
            let texts = tree.compactMap(\.text)
            #expect(!texts.isEmpty && texts.allSatisfy { !$0.contains("<") && !$0.contains("&#x27;") })
            let none = try await hackerNews.comments(of: 192_327)
            #expect(none.isEmpty)
            let missing = try await hackerNews.comments(of: StandIn.missing)
            #expect(missing.isEmpty)
        }
    }

    @Test("comment JSON has every field, null when absent")
    func commentJSON() throws {
        let placeholder = CommentNode(id: 1, by: nil, time: 5, text: nil, deleted: true, comments: [])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(placeholder), as: UTF8.self)
        #expect(json == #"{"by":null,"comments":[],"deleted":true,"id":1,"text":null,"time":5}"#)
    }
}
