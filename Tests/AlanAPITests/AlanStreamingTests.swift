import AlanAPI
import Courier
import CourierLLM
import CourierLLMAdapter
import CourierSandbox
import Foundation
import IntegrationTestSupport
import Testing

/// Alan's answers streamed token by token as typed partials, and the coin report filling in as
/// they arrive — against the sandbox's stand-in, over real sockets.
@Suite("Alan streamed as typed partials")
struct AlanStreamingTests {
    /// Collects a partial stream: the snapshots, whether each was a restart, and the final value.
    func collect<T: Decodable & Sendable>(_ stream: AlanPartialStream<T>) async throws -> (snapshots: [(JSONSnapshot, Bool)], value: T?) {
        var snapshots: [(JSONSnapshot, Bool)] = []
        var value: T?
        for try await update in stream {
            switch update {
            case .partial(let snapshot, let restart): snapshots.append((snapshot, restart))
            case .complete(let complete):
                #expect(value == nil, "one complete value")
                value = complete
            }
        }
        return (snapshots, value)
    }

    /// Every snapshot extends the one before it, unless it says it restarts.
    func expectGrowth(_ snapshots: [(JSONSnapshot, Bool)], sourceLocation: SourceLocation = #_sourceLocation) {
        for (earlier, later) in zip(snapshots, snapshots.dropFirst()) where !later.1 {
            #expect(later.0.extends(earlier.0), "\(later.0.json) does not extend \(earlier.0.json)", sourceLocation: sourceLocation)
        }
    }

    @Test("the weekly answer grows field by field and ends equal to ask(_:as:)", arguments: CoinAnswerDecodingTests.breakages)
    func weekly(_ breakage: String) async throws {
        try await withSandbox { sandbox throws in
            let alan = alanClient(sandbox)
            let prompt = CoinPrompts.weekly(for: Coin(symbol: "BTC")) + "\n#breakage:\(breakage)"
            let (snapshots, value) = try await collect(alan.stream(prompt, as: CoinWeekly.self))
            let whole = try await alan.ask(prompt, as: CoinWeekly.self)
            #expect(value == whole)
            #expect(snapshots.count >= 10, "a partial per few tokens, got \(snapshots.count)")
            expectGrowth(snapshots)
            // Fields fill in: one moment has the price trend begun and no reason yet.
            let drafts = snapshots.compactMap { $0.0.decode(CoinWeekly.Partial.self).value }
            #expect(drafts.contains { $0.priceTrend != nil && $0.reason == nil })
            #expect(drafts.last?.reason?.isEmpty == false)
            // A partial string is a prefix of the final one.
            for draft in drafts {
                if let trend = draft.priceTrend { #expect(whole.priceTrend.hasPrefix(trend)) }
            }
        }
    }

    @Test("today's articles appear one by one, even without the articles key or its brackets", arguments: CoinAnswerDecodingTests.todayBreakages)
    func today(_ breakage: String) async throws {
        try await withSandbox { sandbox throws in
            let alan = alanClient(sandbox)
            let prompt = CoinPrompts.today(for: Coin(symbol: "BTC")) + "\n#breakage:\(breakage)"
            let (snapshots, value) = try await collect(alan.stream(prompt, as: CoinTodayNews.self))
            #expect(value == (try await alan.ask(prompt, as: CoinTodayNews.self)))
            #expect(value?.articles.count == 3)
            expectGrowth(snapshots)
            #expect(!snapshots.isEmpty)
        }
    }

    @Test("a refusal streams to modelRefusal with the model's words, as ask does")
    func refusal() async throws {
        try await withSandbox { sandbox throws in
            let prompt = CoinPrompts.weekly(for: Coin(symbol: "BTC")) + "\n#breakage:refusal"
            await #expect(throws: NetworkError.self) {
                _ = try await collect(alanClient(sandbox).stream(prompt, as: CoinWeekly.self))
            }
            do {
                _ = try await collect(alanClient(sandbox).stream(prompt, as: CoinWeekly.self))
            } catch let error as NetworkError {
                guard case .modelRefusal(let words) = error else {
                    Issue.record("expected modelRefusal, got \(error)")
                    return
                }
                #expect(words.contains("어려움"))
            }
        }
    }

    /// Text pieces handed over as a typed-throws sequence.
    struct Pieces: AsyncSequence, Sendable {
        typealias Failure = NetworkError
        let pieces: [LLMTextPiece]
        struct Iterator: AsyncIteratorProtocol {
            var rest: ArraySlice<LLMTextPiece>
            mutating func next() async throws(NetworkError) -> LLMTextPiece? { rest.popFirst() }
            mutating func next(isolation actor: isolated (any Actor)?) async throws(NetworkError) -> LLMTextPiece? { rest.popFirst() }
        }
        func makeAsyncIterator() -> Iterator { Iterator(rest: pieces[...]) }
    }

    struct Answer: Decodable, Sendable, Equatable { let b: Int }

    @Test("a whole answer that differs from the deltas replaces them: a restart, and the value is the whole answer's")
    func wholeAnswerReplacesTheDeltas() async throws {
        let pieces = Pieces(pieces: [.delta("Draft: {\"b\": 1"), .delta("2, "), .whole("Final:\n```json\n{\"b\": 7}\n```")])
        var updates: [(String, Bool)] = []
        var value: Answer?
        for try await update in LLMPartialStream(pieces, as: Answer.self) {
            switch update {
            case .partial(let snapshot, let restart): updates.append((snapshot.json, restart))
            case .complete(let answer): value = answer
            }
        }
        #expect(value == Answer(b: 7))
        #expect(updates.first.map { $0.0.hasPrefix("{\"b\":1") } == true)
        #expect(updates.last?.0 == "{\"b\":7}")
        #expect(updates.last?.1 == true)
        #expect(updates.dropLast().allSatisfy { !$0.1 })
    }
}
