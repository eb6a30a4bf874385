import Courier
import CourierLLMAdapter
import Foundation
import Testing

@testable import CourierLLM

/// A recursive type: the shape recorder and the decoders meet it at every depth.
private struct Tree: Decodable, Equatable {
    var name: String?
    var children: [Tree]?
}

/// Answers nested far deeper than any real one (100,000 levels): each ends in a value or a
/// clean error, never a stack overflow (which would end the whole test process).
@Suite("Deeply nested answers")
struct DeepNestingTests {
    static let deep = 100_000

    /// Answers that open 100,000 containers, in the shapes the tolerant parser reads.
    /// (Five shapes, one decode each: the whole list with three decodes took 13 s of CPU in a
    /// debug build and starved the timing-sensitive suites running beside it; the linear scan
    /// itself is the `scanResumesPastTooDeep` test's subject.)
    static let hostile: [String] = [
        String(repeating: "[", count: deep),
        String(repeating: "{'a':", count: deep),
        "```json\n" + String(repeating: "[{", count: deep) + "\n```",
        "Here it is: " + String(repeating: #"{"a":"#, count: deep) + "1" + String(repeating: "}", count: deep),
        #"{"content":""# + String(repeating: "[", count: deep) + #""}"#,
    ]

    @Test("decode, extract and extractedJSON end in a value or an error", .timeLimit(.minutes(1)))
    func answers() {
        for answer in Self.hostile {
            let label = String(answer.prefix(24))
            let failures = [failure { try LLMAnswerDecoder().decode(Tree.self, fromAnswer: answer) }]
            for case let error? in failures {
                #expect(error is LLMDecodingError, "\(label): \(error)")
            }
            let extraction = attempt { try LLMAnswerDecoder().extract(fromAnswer: answer) }
            if case .success(let found) = extraction {
                // What is extracted is bounded JSON that Foundation reads back.
                #expect((try? JSONSerialization.jsonObject(with: Data(found.json.utf8), options: [.fragmentsAllowed])) != nil, "\(label)")
            }
            _ = answer.extractedJSON
        }
    }

    @Test("the tolerant parser refuses a value nested past its bound instead of recursing", .timeLimit(.minutes(1)))
    func parserBound() {
        let bytes = Array(String(repeating: "[", count: Self.deep).utf8)
        var parser = TolerantParser(bytes: bytes, start: 0, end: bytes.count)
        #expect(parser.parseTopLevel() == nil)
        #expect(parser.pos <= TolerantParser.maxDepth + 1)
        #expect(parser.tooDeepAt == TolerantParser.maxDepth, "the first container past the bound")
        let allowed = Array((String(repeating: "[", count: TolerantParser.maxDepth) + String(repeating: "]", count: TolerantParser.maxDepth)).utf8)
        var shallow = TolerantParser(bytes: allowed, start: 0, end: allowed.count)
        #expect(shallow.parseTopLevel() != nil)
    }

    @Test("a scan resumes where a value got too deep: 100,000 levels cost one pass, and what it finds is within the bound", .timeLimit(.minutes(1)))
    func scanResumesPastTooDeep() {
        let depth = 100_000
        let text = "prose " + String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth) + " more prose"
        let candidates = CandidateFinder(bytes: Array(text.utf8)).candidates(allowScalars: false)
        // Each attempt gives up `maxDepth` levels further in, and the next starts there: only the
        // innermost levels, below the last place an attempt got too deep, make a value. (Starting
        // again one level down each time, it was the innermost `maxDepth` levels, at 96 times the work.)
        #expect(candidates.count == 1)
        #expect(candidates.map { nesting(of: $0.value) } == [depth % TolerantParser.maxDepth])
    }

    private func nesting(of value: JSONValue) -> Int {
        switch value {
        case .object(let members): 1 + (members.map { nesting(of: $0.value) }.max() ?? 0)
        case .array(let elements): 1 + (elements.map { nesting(of: $0) }.max() ?? 0)
        default: 0
        }
    }

    @Test("a response body nested 100,000 deep is a decodingError; one at Foundation's limit decodes or fails cleanly", .timeLimit(.minutes(1)))
    func responseBodies() {
        let decoding = LLMResponseDecoding(keyPath: ["content"])
        for body in [
            #"{"content":"# + String(repeating: "[", count: Self.deep),
            String(repeating: #"{"content":"#, count: Self.deep),
        ] {
            #expect(throws: NetworkError.self) { try decoding.decode(Tree.self, from: Data(body.utf8), using: JSONDecoder()) }
        }
        // Just inside JSONSerialization's nesting limit (512): the field is re-serialised whole.
        let atLimit = #"{"content":"# + String(repeating: "[", count: 500) + String(repeating: "]", count: 500) + "}"
        if let error = failure({ try decoding.decode([[Int]].self, from: Data(atLimit.utf8), using: JSONDecoder()) }) {
            #expect(error is NetworkError)
        }
        let whole = LLMResponseDecoding()
        #expect(throws: NetworkError.self) {
            try whole.decode(Tree.self, from: Data(String(repeating: "[", count: Self.deep).utf8), using: JSONDecoder())
        }
    }

    @Test("a JSON Schema nested 100,000 deep is refused; one 500 deep is read and used", .timeLimit(.minutes(1)))
    func schemas() throws {
        #expect(throws: JSONSchemaError.self) { try JSONSchema(data: Data(String(repeating: #"{"items":"#, count: Self.deep).utf8)) }
        #expect(throws: JSONSchemaError.self) { try JSONSchema(data: Data(String(repeating: "[", count: Self.deep).utf8)) }
        let depth = 500
        let text = String(repeating: #"{"type":"array","items":"#, count: depth) + #"{"type":"integer"}"# + String(repeating: "}", count: depth)
        let schema = try JSONSchema(data: Data(text.utf8))
        if let error = failure({ try LLMAnswerDecoder(schema: schema).extract(fromAnswer: "[[[1]]]") }) {
            #expect(error is LLMDecodingError)
        }
    }

    private func attempt<T>(_ body: () throws -> T) -> Result<T, any Error> {
        Result { try body() }
    }

    /// The error `body` throws, nil when it returns.
    private func failure(_ body: () throws -> Any) -> (any Error)? {
        do {
            _ = try body()
            return nil
        } catch {
            return error
        }
    }
}
