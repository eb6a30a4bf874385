import Foundation

@testable import CourierLLM

/// One answer of the fixture corpus.
struct CorpusEntry: Sendable {
    let id: String
    let category: String
    let answer: String
    /// The expected JSON value, or `nil` when the answer holds no JSON.
    let expected: JSONValue?
}

enum Corpus {
    /// Loads `Fixtures/corpus.json` from the test bundle.
    static func load() throws -> [CorpusEntry] {
        guard let url = Bundle.module.url(forResource: "corpus", withExtension: "json", subdirectory: "Fixtures") else {
            throw CocoaError(.fileNoSuchFile)
        }
        let bytes = Array(try Data(contentsOf: url))
        var parser = TolerantParser(bytes: bytes, start: 0, end: bytes.count)
        guard case .array(let items)? = parser.parseTopLevel(), parser.repairs.isEmpty else {
            throw CocoaError(.fileReadCorruptFile)
        }
        return items.compactMap { item in
            guard case .string(let id)? = item["id"], case .string(let category)? = item["category"],
                case .string(let answer)? = item["answer"], let expected = item["expected"]
            else { return nil }
            if case .null = expected { return CorpusEntry(id: id, category: category, answer: answer, expected: nil) }
            return CorpusEntry(id: id, category: category, answer: answer, expected: expected)
        }
    }

    /// Parses JSON text (strictly valid output is expected) into a value.
    static func parse(_ text: String) -> JSONValue? {
        let bytes = Array(text.utf8)
        var parser = TolerantParser(bytes: bytes, start: 0, end: bytes.count)
        guard let value = parser.parseTopLevel(), parser.repairs.isEmpty, parser.pos == bytes.count else { return nil }
        return value
    }

    /// Value equality: object key order is ignored and numbers compare by value.
    static func same(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b || Double(a) == Double(b)
        case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy { same($0, $1) }
        case (.object(let a), .object(let b)):
            guard a.count == b.count else { return false }
            var byKey: [String: JSONValue] = [:]
            for member in b { byKey[member.key] = member.value }
            return a.allSatisfy { member in byKey[member.key].map { same(member.value, $0) } ?? false }
        default: return false
        }
    }

    /// The schema a harness derives from an expected value: every key required, items from
    /// the first element.
    static func schema(for value: JSONValue) -> JSONSchema {
        switch value {
        case .null: return JSONSchema(types: ["null"])
        case .bool: return JSONSchema(types: ["boolean"])
        case .string: return JSONSchema(types: ["string"])
        case .number(let text):
            return JSONSchema(types: [text.contains(".") || text.contains("e") || text.contains("E") ? "number" : "integer"])
        case .array(let elements):
            return JSONSchema(types: ["array"], items: elements.first.map(schema(for:)))
        case .object(let members):
            var properties: [String: JSONSchema] = [:]
            for member in members { properties[member.key] = schema(for: member.value) }
            return JSONSchema(types: ["object"], properties: properties, required: members.map(\.key))
        }
    }
}
