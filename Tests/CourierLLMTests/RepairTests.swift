import Foundation
import Testing

@testable import CourierLLM

/// Extracts without a schema and returns the JSON and the report (or fails the test).
private func extract(_ answer: String, schema: JSONSchema? = nil) -> JSONExtraction? {
    do {
        return try LLMAnswerDecoder().extract(fromAnswer: answer, schema: schema)
    } catch {
        Issue.record("no extraction for \(answer.debugDescription): \(error)")
        return nil
    }
}

@Suite("Repairs")
struct RepairTests {
    @Test(
        "each repair produces the expected JSON and is reported",
        arguments: [
            ("```json\n{\"a\": 1}\n```", "{\"a\":1}", Repair.strippedFence),
            ("Sure! {\"a\": 1} Hope it helps.", "{\"a\":1}", .strippedProse),
            ("{\"a\": \"x\"[(출처133)](https://kr.beincrypto.com/base-news/124941/)}", "{\"a\":\"x\"}", .removedCitation),
            ("{\"a\": \"x\" [\\[\\(출처1\\)\\]\\(https://a.kr/1\\)](https://a.kr/1), \"b\": 2}", "{\"a\":\"x\",\"b\":2}", .removedCitation),
            ("{\"a\": \"x\" 【4:0†source】}", "{\"a\":\"x\"}", .removedCitation),
            ("{**\"a\"**: **\"x\"**}", "{\"a\":\"x\"}", .removedMarkdown),
            ("{\"a\": 1,}", "{\"a\":1}", .removedTrailingComma),
            ("[1, 2,]", "[1,2]", .removedTrailingComma),
            ("{\"a\": 1,, \"b\": 2}", "{\"a\":1,\"b\":2}", .removedDoubledComma),
            ("{\"a\": 1\n\"b\": 2}", "{\"a\":1,\"b\":2}", .insertedMissingComma),
            ("[{\"a\": 1} {\"a\": 2}]", "[{\"a\":1},{\"a\":2}]", .insertedMissingComma),
            ("{\"a\" 1}", "{\"a\":1}", .insertedMissingColon),
            ("{'a': 'b'}", "{\"a\":\"b\"}", .convertedQuotes),
            ("{“a”: “b”}", "{\"a\":\"b\"}", .convertedQuotes),
            ("{‘a’: ‘b’}", "{\"a\":\"b\"}", .convertedQuotes),
            ("{a: 1, b_c: 2}", "{\"a\":1,\"b_c\":2}", .quotedKey),
            ("{\"a\": True}", "{\"a\":true}", .convertedLiteral("True")),
            ("{\"a\": None}", "{\"a\":null}", .convertedLiteral("None")),
            ("{\"a\": undefined}", "{\"a\":null}", .convertedLiteral("undefined")),
            ("{\"a\": NaN}", "{\"a\":null}", .convertedLiteral("NaN")),
            ("{\"a\": +1}", "{\"a\":1}", .normalizedNumber("+1")),
            ("{\"a\": .5}", "{\"a\":0.5}", .normalizedNumber(".5")),
            ("{\"a\": \"x\ny\"}", "{\"a\":\"x\\ny\"}", .escapedControlCharacter),
            ("{\"a\": \"x\ty\"}", "{\"a\":\"x\\ty\"}", .escapedControlCharacter),
            ("{\"a\": \"say \"hi\" now\"}", "{\"a\":\"say \\\"hi\\\" now\"}", .escapedInnerQuote),
            ("{\"a\": \"it\\'s\"}", "{\"a\":\"it's\"}", .fixedInvalidEscape),
            ("{\"a\": 1 // one\n}", "{\"a\":1}", .removedComment),
            ("{/* c */ \"a\": 1}", "{\"a\":1}", .removedComment),
            ("{\"u\": [https://a.com/x](https://a.com/x)}", "{\"u\":\"https://a.com/x\"}", .convertedMarkdownLink),
            ("{\"a\": [1, 2", "{\"a\":[1,2]}", .closedTruncated),
            ("{\"a\": [1, 2}", "{\"a\":[1,2]}", .fixedMismatchedBracket),
            ("{\"a\": BTC coin}", "{\"a\":\"BTC coin\"}", .quotedValue),
            ("{\"a\": 1, \"b\": 2\n\nHope this helps!", "{\"a\":1,\"b\":2}", .closedUnterminated),
            ("{\"s\": \"x\", {\"t\": 1}, {\"t\": 2}}", "{\"s\":\"x\",\"items\":[{\"t\":1},{\"t\":2}]}", .wrappedOrphanedObjects(key: "items")),
            ("{\"a\": 1}\n{\"a\": 2}", "[{\"a\":1},{\"a\":2}]", .wrappedInArray),
            ("{\\\"a\\\": 1}", "{\"a\":1}", .unwrappedNestedString),
        ])
    func repair(answer: String, json: String, repair: Repair) {
        guard let extraction = extract(answer) else { return }
        #expect(extraction.json == json)
        #expect(extraction.report.contains(repair), "\(extraction.report)")
    }

    @Test("valid JSON needs no repairs")
    func validJSON() {
        let extraction = extract("{\"a\": [1, 2.5, -3e2, true, false, null], \"b\": {\"c\": \"d\"}}")
        #expect(extraction?.json == "{\"a\":[1,2.5,-3e2,true,false,null],\"b\":{\"c\":\"d\"}}")
        #expect(extraction?.report.isEmpty == true)
        #expect(extraction?.report.description == "no repairs")
    }

    @Test("truncated answers are closed and marked")
    func truncation() {
        let extraction = extract("{\"title\": \"비트코인 12만달러", schema: nil)
        #expect(extraction?.json == "{\"title\":\"비트코인 12만달러\"}")
        #expect(extraction?.report.isTruncated == true)
        let dangling = extract("{\"a\": 1, \"b\":")
        #expect(dangling?.json == "{\"a\":1}")
        #expect(dangling?.report.isTruncated == true)
        let literal = extract("[true, fal")
        #expect(literal?.json == "[true,false]")
    }

    @Test("the seed's missing articles key is repaired from the type")
    func seedOrphans() throws {
        let answer = """
            {"content": "{\\n  \\"summaryOfTodaysMarketSentiment\\": \\"하락세입니다.\\"\\n  {\\n    \\"title\\": \\"비트코인 다시 12만달러 넘길까\\", \\n    \\"summary\\": \\"상승 재개 신호\\", \\"newsSourceURL\\": \\"https://a.kr/1\\"\\n  }, \\n  {\\n    \\"title\\": \\"스트래티지 매입\\", \\n    \\"summary\\": \\"2.1만개\\", \\"newsSourceURL\\": \\"https://a.kr/2\\"\\n  }\\n}"}
            """
        let decoded = try LLMAnswerDecoder().decode(CoinTodayNews.self, fromAnswer: answer)
        #expect(decoded.value.summaryOfTodaysMarketSentiment == "하락세입니다.")
        #expect(decoded.value.articles.map(\.title) == ["비트코인 다시 12만달러 넘길까", "스트래티지 매입"])
        #expect(decoded.report.contains(.wrappedOrphanedObjects(key: "articles")))
        #expect(decoded.report.contains(.unwrappedField("content")))
        #expect(decoded.report.contains(.unwrappedNestedString))
        #expect(decoded.report.contains(.insertedMissingComma))
    }

    @Test("the articles key without its opening bracket (with or without the closing one) becomes the array", arguments: ["]", ""])
    func keyWithoutBracket(_ closing: String) throws {
        let answer = """
            {"summaryOfTodaysMarketSentiment": "신중", "articles": {"title": "a", "summary": "s1", "newsSourceURL": "https://a.kr/1"},
              {"title": "b", "summary": "s2", "newsSourceURL": "https://a.kr/2"}, {"title": "c", "summary": "s3", "newsSourceURL": "https://a.kr/3"}\(closing)
            }
            """
        let decoded = try LLMAnswerDecoder().decode(CoinTodayNews.self, fromAnswer: answer)
        #expect(decoded.value.articles.map(\.title) == ["a", "b", "c"])
        #expect(decoded.report.contains(.wrappedOrphanedObjects(key: "articles")))
    }

    @Test("report lists one line per repair, without duplicates")
    func reportDescription() {
        let report = RepairReport(repairs: [.strippedFence, .removedTrailingComma, .strippedFence, .closedTruncated])
        #expect(report.repairs == [.strippedFence, .removedTrailingComma, .closedTruncated])
        #expect(report.isTruncated)
        #expect(report.description.split(separator: "\n").count == 3)
        #expect(report.description.contains("removed trailing comma"))
        #expect(RepairReport() == RepairReport(repairs: []))
        #expect(RepairReport().isEmpty)
    }
}
