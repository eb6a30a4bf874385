import Courier
import Foundation
import Synchronization
import Testing

@testable import HackerNewsAPI

/// A Hacker News API whose every comment has one reply, without end: item `n` answers with
/// `kids: [n + 1]`. Counts the item calls.
private final class EndlessThread: NetworkProviding {
    let calls = Mutex(0)

    func request<T: Decodable & Sendable>(_ endpoint: some Endpoint, as type: T.Type) async throws(NetworkError) -> T {
        calls.withLock { $0 += 1 }
        let name = endpoint.path.split(separator: "/").last.map(String.init) ?? ""
        guard name.hasSuffix(".json"), let id = Int(name.dropLast(5)) else { throw .invalidURL }
        let json = #"{"id":\#(id),"type":"comment","by":"troll","time":1,"text":"again","kids":[\#(id + 1)]}"#
        do {
            return try JSONDecoder().decode(T.self, from: Data(json.utf8))
        } catch {
            throw .decodingError(error as? DecodingError ?? .dataCorrupted(.init(codingPath: [], debugDescription: "\(error)")))
        }
    }

    func response(_ endpoint: some Endpoint) async throws(NetworkError) -> NetworkResponse {
        throw .invalidURL
    }
}

@Suite("Comment trees have a depth bound")
struct CommentDepthTests {
    /// A chain of `count` comments under `root`: comment `root + n` has the one reply `root + n + 1`.
    private func chain(from root: Int, count: Int) -> [Int: Item] {
        var items: [Int: Item] = [:]
        for id in root + 1...root + count {
            items[id] = Item(id: id, type: .comment, by: "troll", time: 1, text: "again", kids: [id + 1])
        }
        return items
    }

    @Test("an endless chain of replies is fetched down to maxDepth levels and no further", .timeLimit(.minutes(1)))
    func endlessThreadStops() async throws {
        let network = EndlessThread()
        let hackerNews = HackerNewsClient(network: network)
        let root = Item(id: 1, type: .story, by: "pg", kids: [2], title: "bait")
        let levels = Mutex(0)
        let tree = try await hackerNews.comments(of: root) { _ in levels.withLock { $0 += 1 } }
        #expect(tree.map { $0.depth }.max() == CommentNode.maxDepth)
        #expect(tree.first?.count == CommentNode.maxDepth)
        #expect(network.calls.withLock { $0 } == CommentNode.maxDepth, "one call per level, none below the bound")
        #expect(levels.withLock { $0 } == CommentNode.maxDepth)
    }

    @Test("a tree built from 100,000 nested replies is cut at maxDepth (no recursion that deep)")
    func deepItemsAreCut() {
        let items = chain(from: 1, count: 100_000)
        let tree = CommentNode.tree([2], items: items)
        #expect(tree.count == 1)
        #expect(tree[0].depth == CommentNode.maxDepth)
        #expect(tree[0].count == CommentNode.maxDepth)
    }

    @Test("an item answer nested 100,000 deep is a decodingError, not a crash")
    func deepItemAnswer() {
        for nest in [String(repeating: "[", count: 100_000), String(repeating: #"{"kids":"#, count: 100_000)] {
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(Item?.self, from: Data(nest.utf8)) }
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(CommentNode.self, from: Data(nest.utf8)) }
        }
    }

    @Test("a cycle of replies, or a reply listed twice at every level, places each comment once")
    func cyclesAndRepeats() {
        // 2 → 3 → 2 …: a cycle.
        let cycle: [Int: Item] = [
            2: Item(id: 2, type: .comment, by: "a", text: "x", kids: [3]),
            3: Item(id: 3, type: .comment, by: "b", text: "y", kids: [2]),
        ]
        let looped = CommentNode.tree([2], items: cycle)
        #expect(looped.first?.count == 2)
        // Each comment lists its one reply twice: 2^60 paths through 60 comments.
        var doubled: [Int: Item] = [:]
        for id in 2...61 { doubled[id] = Item(id: id, type: .comment, by: "a", text: "x", kids: [id + 1, id + 1]) }
        let tree = CommentNode.tree([2, 2], items: doubled)
        #expect(tree.count == 1)
        #expect(tree.first?.count == 60)
    }
}
