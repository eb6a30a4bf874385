import Foundation
import IntegrationTestSupport
import Testing

@testable import CourierLLM

@Suite("Partial JSON decoding", .tags(.cpuBound))
struct PartialJSONDecoderTests {
    static let corpus = (try? Corpus.load()) ?? []

    /// What the whole-answer decoder gives: the compact JSON, or nil when it throws.
    static func whole(_ answer: String, schema: JSONSchema? = nil) -> String? {
        try? LLMAnswerDecoder().extract(fromAnswer: answer, schema: schema).json
    }

    @Test("the corpus is there")
    func corpusLoads() {
        #expect(Self.corpus.count >= 120)
    }

    @Test("every corpus answer, cut 1,000 random ways, ends equal to the whole-answer decoder", arguments: 0..<149)
    func randomChunkingsEndEqual(index: Int) {
        guard index < Self.corpus.count else { return }
        let entry = Self.corpus[index]
        let expected = try? LLMAnswerDecoder().extract(fromAnswer: entry.answer)
        let bytes = Array(entry.answer.utf8)
        for seed in 0..<1000 {
            var generator = SeededGenerator(seed: UInt64(index * 1000 + seed))
            let run = Chunking.stream(Chunking.random(bytes, using: &generator))
            let final = try? run.final.get()
            let equal = final?.snapshot.json == expected?.json && final?.report == expected?.report
            #expect(equal, "\(entry.id), seed \(index * 1000 + seed): \(final?.report?.description ?? "-") vs \(expected?.report.description ?? "-")")
            if !equal { return }
        }
    }

    @Test("with the schema of the expected value, the end equals the whole-answer decoder too")
    func schemaGuidedEndEqual() {
        for (index, entry) in Self.corpus.enumerated() {
            guard let expected = entry.expected else { continue }
            let schema = Corpus.schema(for: expected)
            let whole = try? LLMAnswerDecoder().extract(fromAnswer: entry.answer, schema: schema)
            var generator = SeededGenerator(seed: UInt64(index))
            for _ in 0..<20 {
                let run = Chunking.stream(Chunking.random(Array(entry.answer.utf8), using: &generator), schema: schema)
                let final = try? run.final.get()
                #expect(final?.snapshot.json == whole?.json && final?.report == whole?.report, "\(entry.id)")
            }
        }
    }

    @Test("between restarts every snapshot extends the one before it")
    func snapshotsOnlyGrow() {
        for (index, entry) in Self.corpus.enumerated() {
            var generator = SeededGenerator(seed: UInt64(7_000 + index))
            let bytes = Array(entry.answer.utf8)
            for round in 0..<8 {
                let chunks = round == 0 ? bytes.indices.map { bytes[$0...$0] } : Chunking.random(bytes, using: &generator)
                let run = Chunking.stream(chunks)
                var updates = run.updates
                if let final = try? run.final.get() { updates.append(final) }
                for (earlier, later) in zip(updates, updates.dropFirst()) where !later.isRestart {
                    #expect(later.snapshot.extends(earlier.snapshot), "\(entry.id): \(earlier.snapshot.json) → \(later.snapshot.json)")
                }
            }
        }
    }

    @Test("restarts over the corpus are rare")
    func restartsAreRare() {
        var restarts = 0
        var schemaRestarts = 0
        for entry in Self.corpus {
            let bytes = Array(entry.answer.utf8)
            restarts += Chunking.stream(bytes.indices.map { bytes[$0...$0] }).restarts
            if let expected = entry.expected {
                schemaRestarts += Chunking.stream(bytes.indices.map { bytes[$0...$0] }, schema: Corpus.schema(for: expected)).restarts
            }
        }
        print("partial JSON restarts over \(Self.corpus.count) corpus answers: \(restarts) without schema, \(schemaRestarts) with")
        #expect(restarts <= Self.corpus.count / 4)
    }

    @Test("the extension relation: strings grow, items are added, complete values never change")
    func extensionRelation() {
        func snapshots(_ text: String) -> [JSONSnapshot] {
            var decoder = PartialJSONDecoder()
            return text.utf8.compactMap { decoder.feed([$0])?.snapshot }
        }
        let grown = snapshots(#"{"a": "hello", "n": ["x", 12, 345], "b": {"c": true}}"#)
        #expect(grown.map(\.json).contains(#"{"a":"hel"}"#))
        #expect(grown.map(\.json).contains(#"{"a":"hello","n":["x",12]}"#))
        #expect(!grown.map(\.json).contains(#"{"a":"hello","n":["x",12,3]}"#), "a number shows only once complete")
        for (earlier, later) in zip(grown, grown.dropFirst()) { #expect(later.extends(earlier)) }
        let number = JSONSnapshot(node: .openArray([.number("12")], last: nil))
        #expect(!JSONSnapshot(node: .complete(.array([.number("123")]))).extends(number))
        #expect(JSONSnapshot(node: .complete(.array([.number("12"), .number("3")]))).extends(number))
        let text = JSONSnapshot(node: .openString(Array("ab".utf8)))
        #expect(JSONSnapshot(node: .complete(.string("abc"))).extends(text))
        #expect(!JSONSnapshot(node: .complete(.string("ac"))).extends(text))
    }

    @Test("a fenced block after bare JSON restarts with the fenced value")
    func fenceAfterBareJSONRestarts() {
        let answer = "Draft: {\"a\": 1, \"b\": 2}\n\nFinal:\n```json\n{\"c\": 3}\n```\n"
        let run = Chunking.stream(Array(answer.utf8).map { [$0][...] })
        #expect(run.restarts == 1)
        #expect(run.updates.contains { $0.isRestart })
        #expect((try? run.final.get().snapshot.json) == #"{"c":3}"#)
    }

    struct Card: Decodable, Equatable {
        let title: String
        let tags: [String]
        let score: Int?
    }

    @Test("the typed view decodes once the required fields are there and lists the missing ones")
    func typedView() throws {
        var decoder = PartialJSONDecoder()
        let firstUpdate = decoder.feed(#"Sure! {"title": "Bitc"#)
        let first = try #require(firstUpdate)
        let early = first.snapshot.decode(Card.self)
        #expect(early.value == nil)
        #expect(early.missingFields == ["tags"])
        let laterUpdate = decoder.feed(#"oin", "tags": ["btc""#)
        let later = try #require(laterUpdate)
        #expect(later.snapshot.decode(Card.self).value == Card(title: "Bitcoin", tags: ["btc"], score: nil))
        #expect(later.snapshot.decode(Card.self).missingFields.isEmpty)
        let final = try decoder.finish()
        #expect(final.snapshot.isComplete)
        #expect(final.report?.isTruncated == true)
    }

    @Test("a snapshot kept while the decoder reads on stays as it was, and a copied decoder reads on its own")
    func snapshotsStayAndCopiesAreIndependent() throws {
        var decoder = PartialJSONDecoder()
        let kept = try #require(decoder.feed(#"{"a": "hel"#)?.snapshot)
        var copy = decoder
        _ = decoder.feed(#"lo", "n": [1, 2, {"deep": "x"#)
        #expect(kept.json == #"{"a":"hel"}"#)
        _ = copy.feed(#"p", "b": true}"#)
        #expect(kept.json == #"{"a":"hel"}"#)
        #expect(decoder.snapshot?.json == #"{"a":"hello","n":[1,2,{"deep":"x"}]}"#)
        #expect(copy.snapshot?.json == #"{"a":"help","b":true}"#)
        #expect(try copy.finish().snapshot.json == #"{"a":"help","b":true}"#)
        #expect(decoder.snapshot?.extends(kept) == true)
    }

    @Test("snapshots kept across many log growths, and across a copy, read as they were after the decoders are gone")
    func snapshotsOutliveGrowthAndCopies() throws {
        let items = (0..<300).map { #"{"id": \#($0), "name": "item \#($0) 이름", "tags": ["a", "b"]}"# }
        let answer = Array(("[" + items.joined(separator: ", ") + "]").utf8)
        let half = answer.count / 2 / 7 * 7 + 7
        var kept: [(JSONSnapshot, String)] = []
        do {
            var decoder = PartialJSONDecoder()
            var copy: PartialJSONDecoder?
            for start in stride(from: 0, to: answer.count, by: 7) {
                if let update = decoder.feed(answer[start..<min(answer.count, start + 7)]), start % 91 == 0 {
                    kept.append((update.snapshot, update.snapshot.json))
                }
                if start + 7 == half { copy = decoder }
            }
            guard var copy else { throw CancellationError() }
            _ = copy.feed("]")
            kept.append((try copy.finish().snapshot, try #require(Self.whole(String(decoding: answer[..<half], as: UTF8.self) + "]"))))
            kept.append((try decoder.finish().snapshot, try #require(Self.whole(String(decoding: answer, as: UTF8.self)))))
        }
        #expect(kept.count > 20)
        for (snapshot, json) in kept { #expect(snapshot.json == json) }
    }

    @Test("an answer without JSON throws what the whole-answer decoder throws")
    func refusalThrows() {
        var decoder = PartialJSONDecoder()
        _ = decoder.feed("I can't help with that.")
        let result = Result { () throws(LLMDecodingError) in try decoder.finish() }
        #expect(throws: LLMDecodingError.noJSON(modelText: "I can't help with that.")) { try result.get() }
    }

    @Test("random bytes cut at random places never crash and end equal to the whole-answer decoder")
    func randomBytes() {
        var generator = SeededGenerator(seed: 42)
        let alphabet = Array(#"{}[]"':,\ntrue1-.e/*#`abc \u{201C}\u{201D}"#.utf8) + [0xE2, 0x80, 0x9C, 0xC2, 0xA0, 0xFF, 0x5C]
        for _ in 0..<600 {
            let count = Int.random(in: 0...400, using: &generator)
            let bytes = (0..<count).map { _ in
                Int.random(in: 0..<4, using: &generator) == 0
                    ? UInt8.random(in: 0...255, using: &generator) : alphabet.randomElement(using: &generator)!
            }
            let run = Chunking.stream(Chunking.random(bytes, using: &generator))
            let whole = Self.whole(String(decoding: bytes, as: UTF8.self))
            #expect((try? run.final.get().snapshot.json) == whole)
        }
    }

    @Test("nesting past the parser's limit is refused, not recursed into")
    func deepNesting() {
        let answer = String(repeating: "[{\"a\":", count: 5_000)
        let run = Chunking.stream(Array(answer.utf8).chunks(of: 7))
        #expect((try? run.final.get().snapshot.json) == Self.whole(answer))
    }

    @Test("a hostile answer 100,000 levels deep, never closed, in 1 KiB chunks: no crash, the whole decoder's result")
    func hostileDepth() {
        for answer in [String(repeating: "[", count: 100_000), "답: " + String(repeating: "{\"a\":[", count: 50_000) + "1"] {
            let run = Chunking.stream(Array(answer.utf8).chunks(of: 1024))
            #expect((try? run.final.get().snapshot.json) == Self.whole(answer))
        }
    }
}

extension Array where Element == UInt8 {
    func chunks(of size: Int) -> [ArraySlice<UInt8>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min(count, $0 + size)] }
    }
}
