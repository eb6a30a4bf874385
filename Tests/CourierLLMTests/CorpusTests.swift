import Foundation
import Testing

@testable import CourierLLM

struct CoinOverview: Codable, Equatable {
    let symbol: String
    let websiteURL: String?
    let launchDate: String
    let description: String
}

struct CoinWeekly: Codable, Equatable {
    let priceTrend: String
    let volumeChange: String
    let reason: String
}

struct CoinArticle: Codable, Equatable {
    let title: String
    let summary: String
    let newsSourceURL: String
}

struct CoinTodayNews: Codable, Equatable {
    let summaryOfTodaysMarketSentiment: String
    let articles: [CoinArticle]
}

struct CoinRank: Codable, Equatable {
    let rank: Int
    let symbol: String
}

@Suite("Corpus")
struct CorpusTests {
    let entries: [CorpusEntry]

    init() throws {
        entries = try Corpus.load()
    }

    @Test("the corpus is large and covers refusals")
    func corpusSize() {
        #expect(entries.count >= 120)
        #expect(entries.filter { $0.expected == nil }.count >= 15)
        #expect(Set(entries.map(\.category)).count >= 20)
    }

    @Test("schema-guided extraction: at least 97% exact, no false positives")
    func schemaGuided() {
        var exact = 0
        var failures: [String] = []
        let withJSON = entries.filter { $0.expected != nil }
        for entry in withJSON {
            guard let expected = entry.expected else { continue }
            let schema = Corpus.schema(for: expected)
            if let json = try? LLMAnswerDecoder().extract(fromAnswer: entry.answer, schema: schema).json,
                let actual = Corpus.parse(json), Corpus.same(actual, expected)
            {
                exact += 1
            } else {
                failures.append(entry.id)
            }
        }
        let rate = Double(exact) / Double(withJSON.count)
        #expect(rate >= 0.97, "exact \(exact)/\(withJSON.count); failed: \(failures)")
        for entry in entries where entry.expected == nil {
            for schema in [JSONSchema(types: ["null"]), Corpus.schema(for: .object([JSONMember(key: "a", value: .string(""))])), nil] {
                #expect(throws: LLMDecodingError.self, "false positive: \(entry.id)") {
                    try LLMAnswerDecoder().extract(fromAnswer: entry.answer, schema: schema)
                }
            }
        }
    }

    @Test("schema-less extractedJSON never invents JSON and mostly agrees")
    func schemaLess() {
        var exact = 0
        let withJSON = entries.filter { $0.expected != nil }
        for entry in withJSON {
            if let json = entry.answer.extractedJSON, let actual = Corpus.parse(json), let expected = entry.expected,
                Corpus.same(actual, expected)
            {
                exact += 1
            }
        }
        #expect(Double(exact) / Double(withJSON.count) >= 0.85, "exact \(exact)/\(withJSON.count)")
        for entry in entries where entry.expected == nil {
            #expect(entry.answer.extractedJSON == nil, "false positive: \(entry.id)")
        }
    }

    @Test("type-guided decoding of the seed DTOs: at least 97% exact")
    func typeGuided() {
        var total = 0
        var exact = 0
        var failures: [String] = []
        func attempt<T: Decodable & Equatable>(_ type: T.Type, _ entry: CorpusEntry) -> Bool {
            guard let expected = entry.expected,
                let value = try? JSONDecoder().decode(T.self, from: expected.compactData())
            else { return false }
            total += 1
            if let decoded = try? LLMAnswerDecoder().decode(T.self, fromAnswer: entry.answer), decoded.value == value {
                exact += 1
            } else {
                failures.append(entry.id)
            }
            return true
        }
        for entry in entries {
            _ =
                attempt(CoinTodayNews.self, entry) || attempt(CoinOverview.self, entry) || attempt(CoinWeekly.self, entry)
                || attempt([CoinRank].self, entry) || attempt([CoinArticle].self, entry)
        }
        #expect(total >= 50)
        #expect(Double(exact) / Double(max(total, 1)) >= 0.97, "exact \(exact)/\(total); failed: \(failures)")
    }

    @Test("refusals decode to noJSON carrying the model's text")
    func refusalsCarryText() throws {
        for entry in entries where entry.expected == nil {
            do {
                _ = try LLMAnswerDecoder().decode(CoinTodayNews.self, fromAnswer: entry.answer)
                Issue.record("decoded a refusal: \(entry.id)")
            } catch {
                guard case .noJSON(let text) = error else {
                    Issue.record("\(entry.id): expected noJSON, got \(error)")
                    continue
                }
                #expect(text == text.trimmingCharacters(in: .whitespacesAndNewlines))
                if !entry.answer.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { #expect(!text.isEmpty, "\(entry.id)") }
            }
        }
    }
}
