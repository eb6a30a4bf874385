import Foundation

@testable import CourierLLM

// libFuzzer entry for the CourierLLM parser. Built by Fuzz/fuzz-common.sh against the CourierLLM
// module compiled from Sources/CourierLLM (all of it, with `-enable-testing`), so internal
// invariants can be checked directly. Run with Fuzz/run.sh LLMFuzz SECONDS (or run-llm-fuzz.sh).

private struct FuzzArticle: Decodable {
    let title: String
    let summary: String
    let newsSourceURL: String
}

private struct FuzzNews: Decodable {
    let summaryOfTodaysMarketSentiment: String
    let articles: [FuzzArticle]
}

private let newsSchema = JSONSchema(
    types: ["object"],
    properties: [
        "summaryOfTodaysMarketSentiment": JSONSchema(types: ["string"]),
        "articles": JSONSchema(
            types: ["array"],
            items: JSONSchema(
                types: ["object"],
                properties: [
                    "title": JSONSchema(types: ["string"]), "summary": JSONSchema(types: ["string"]),
                ])),
    ],
    required: ["summaryOfTodaysMarketSentiment", "articles"]
)

/// Every extracted text must be valid JSON, and extracting again from it must give it back.
private func check(_ extraction: JSONExtraction?) {
    guard let extraction else { return }
    let data = Data(extraction.json.utf8)
    guard (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil else {
        fatalError("extracted text is not valid JSON: \(extraction.json)")
    }
    // Orphan wrapping can double the nesting; past the parser's depth limit a re-parse may
    // legitimately differ, so idempotence is only required for reasonable depths.
    guard nestingDepth(extraction.json) <= TolerantParser.maxDepth / 2 else { return }
    guard let again = try? LLMAnswerDecoder().extract(fromAnswer: extraction.json), again.json == extraction.json else {
        fatalError("extraction is not idempotent: \(extraction.json)")
    }
}

/// The deepest bracket nesting of JSON text (brackets inside strings are ignored).
private func nestingDepth(_ json: String) -> Int {
    var depth = 0
    var deepest = 0
    var inString = false
    var escaped = false
    for byte in json.utf8 {
        if inString {
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                inString = false
            }
            continue
        }
        switch byte {
        case UInt8(ascii: "\""): inString = true
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            depth += 1
            deepest = max(deepest, depth)
        case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
        default: break
        }
    }
    return deepest
}

@_cdecl("LLVMFuzzerTestOneInput")
public func llmFuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let decoder = LLMAnswerDecoder()
    check(try? decoder.extract(fromAnswer: text))
    check(try? decoder.extract(fromAnswer: text, schema: newsSchema))
    _ = try? decoder.decode(FuzzNews.self, fromAnswer: text)
    _ = try? decoder.decode([Int].self, fromAnswer: text)
    _ = text.extractedJSON
    checkStreaming(Array(UnsafeBufferPointer(start: data, count: size)), whole: try? decoder.extract(fromAnswer: text))
    return 0
}

/// The incremental decoder fed the same bytes in chunks (sizes drawn from the input itself) ends
/// with what the whole-answer decoder gives (the JSON and the repair report), and its snapshots
/// only grow between restarts.
private func checkStreaming(_ bytes: [UInt8], whole: JSONExtraction?) {
    var partial = PartialJSONDecoder()
    var index = 0
    var previous: JSONSnapshot?
    while index < bytes.count {
        let size = Int(bytes[index] % 17) + 1
        let end = min(bytes.count, index + size)
        if let update = partial.feed(bytes[index..<end]) {
            if !update.isRestart, let previous, !update.snapshot.extends(previous) {
                fatalError("a snapshot shrank without a restart: \(previous.json) → \(update.snapshot.json)")
            }
            previous = update.snapshot
        }
        index = end
    }
    let final = try? partial.finish()
    guard final?.snapshot.json == whole?.json else {
        fatalError("streamed \(final?.snapshot.json ?? "failure") ≠ whole \(whole?.json ?? "failure")")
    }
    guard final?.report == whole?.report else {
        fatalError("streamed report \(final?.report?.description ?? "none") ≠ whole \(whole?.report.description ?? "none")")
    }
}
