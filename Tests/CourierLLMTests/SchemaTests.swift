import Foundation
import Testing

@testable import CourierLLM

@Suite("JSONSchema and shape recording")
struct SchemaTests {
    @Test("parses types, properties, items and required")
    func parse() throws {
        let schema = try JSONSchema(
            data: Data(
                """
                {"type": "object", "required": ["a"], "properties": {
                  "a": {"type": ["string", "null"]},
                  "b": {"type": "array", "items": {"type": "integer"}}
                }}
                """.utf8))
        #expect(schema.types == ["object"])
        #expect(schema.required == ["a"])
        #expect(schema.properties["a"]?.types == ["string", "null"])
        #expect(schema.properties["b"]?.items?.types == ["integer"])
        guard case .object(let object) = schema.shape else {
            Issue.record("expected an object shape")
            return
        }
        #expect(object.required == ["a"])
        #expect(object.properties["a"] == .union([.string, .null]))
        #expect(object.properties["b"] == .array(.integer))
    }

    @Test("rejects invalid schemas", arguments: ["[1]", "not json", #"{"type": "date"}"#, #"{"type": 3}"#])
    func invalid(text: String) {
        #expect(throws: JSONSchemaError.self) { try JSONSchema(data: Data(text.utf8)) }
    }

    @Test("records the shape of a Decodable type")
    func recorder() {
        guard case .object(let news)? = ShapeRecorder.shape(of: CoinTodayNews.self) else {
            Issue.record("no shape")
            return
        }
        #expect(news.keys == ["summaryOfTodaysMarketSentiment", "articles"])
        guard case .array(.object(let article))? = news.properties["articles"] else {
            Issue.record("articles not recorded")
            return
        }
        #expect(article.keys == ["title", "summary", "newsSourceURL"])
        guard case .object(let overview)? = ShapeRecorder.shape(of: CoinOverview.self) else {
            Issue.record("no overview shape")
            return
        }
        #expect(!overview.required.contains("websiteURL"))
        #expect(overview.required.contains("symbol"))
        #expect(ShapeRecorder.shape(of: [Int].self) == .array(.integer))
        #expect(ShapeRecorder.shape(of: String.self) == .string)
    }

    @Test("types that cannot be probed fall back without crashing")
    func unprobeable() {
        enum Kind: String, Decodable { case a, b }
        struct WithEnum: Decodable {
            let name: String
            let kind: Kind
            let after: Int
        }
        struct Tree: Decodable {
            let value: Int
            let children: [Tree]
            let next: Box?
        }
        final class Box: Decodable { let tree: Tree? }
        enum Choice: String, Decodable, CaseIterable { case yes, no }
        struct Picks: Decodable {
            let choice: Choice
            let count: Int
        }
        guard case .object(let partial)? = ShapeRecorder.shape(of: WithEnum.self) else {
            Issue.record("no partial shape")
            return
        }
        #expect(partial.keys.starts(with: ["name", "kind"]))
        #expect(partial.isOpen)
        #expect(ShapeRecorder.shape(of: Tree.self) != nil)
        guard case .object(let picks)? = ShapeRecorder.shape(of: Picks.self) else {
            Issue.record("no picks shape")
            return
        }
        #expect(picks.keys == ["choice", "count"])
        #expect(picks.properties["choice"] == .string)
        #expect(ShapeRecorder.shape(of: [String: Int].self) != nil)
    }

    @Test("inferred schema mirrors the type")
    func inferred() {
        let schema = JSONSchema.inferred(from: CoinWeekly.self)
        #expect(schema?.types == ["object"])
        #expect(Set(schema?.required ?? []) == ["priceTrend", "volumeChange", "reason"])
    }

    @Test("schema-guided extraction finds the orphaned array key")
    func schemaGuided() throws {
        let schema = try JSONSchema(
            data: Data(
                """
                {"type": "object", "properties": {"s": {"type": "string"}, "list": {"type": "array", "items":
                  {"type": "object", "properties": {"t": {"type": "integer"}}}}}}
                """.utf8))
        let extraction = try LLMAnswerDecoder(schema: schema).extract(fromAnswer: #"{"s": "x", {"t": 1}, {"t": 2}}"#)
        #expect(extraction.json == #"{"s":"x","list":[{"t":1},{"t":2}]}"#)
        #expect(extraction.report.contains(.wrappedOrphanedObjects(key: "list")))
    }
}
