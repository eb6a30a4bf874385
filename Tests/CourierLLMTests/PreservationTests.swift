import Foundation
import Testing

@testable import CourierLLM

@Suite("String contents are preserved")
struct PreservationTests {
    @Test(
        "valid strings keep backslashes, apostrophes, spaces and Korean text",
        arguments: [
            #"{"p": "C:\\Users\\coin", "r": "^\\d+$"}"#,
            #"{"t": "  앞뒤 공백  ", "a": "it's 'quoted'"}"#,
            #"{"q": "He said \"hi\"", "u": "\u00e9\ud83d\ude80"}"#,
            #"{"m": "**굵게** [링크](https://x.com) // not a comment /* nor this */"}"#,
            #"{"b": "{ not json } [1, 2,] True None"}"#,
            #"{"s": "그는 “좋다”고 ‘말했다’"}"#,
        ])
    func preserved(json: String) throws {
        let expected = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? NSDictionary
        for answer in [json, "```json\n\(json)\n```", "설명입니다:\n\(json)\n감사합니다."] {
            let extraction = try LLMAnswerDecoder().extract(fromAnswer: answer)
            let actual = try JSONSerialization.jsonObject(with: Data(extraction.json.utf8)) as? NSDictionary
            #expect(actual == expected, "\(answer)")
        }
    }

    @Test("repairs elsewhere never touch a valid string")
    func repairsElsewhere() throws {
        let answer = "{'k': 'v', \"s\": \"a\\\\b 'c' \\\"d\\\" 한글  공백\", n: None,}"
        let extraction = try LLMAnswerDecoder().extract(fromAnswer: answer)
        #expect(extraction.json == #"{"k":"v","s":"a\\b 'c' \"d\" 한글  공백","n":null}"#)
    }

    @Test("compact output is valid JSON that JSONSerialization reads back")
    func roundTrip() throws {
        let answer = "{\"a\": \"line\nbreak\u{01}\", 'b': [1, 2,,], c: True}"
        let extraction = try LLMAnswerDecoder().extract(fromAnswer: answer)
        let object = try JSONSerialization.jsonObject(with: Data(extraction.json.utf8)) as? [String: Any]
        #expect(object?["a"] as? String == "line\nbreak\u{01}")
        #expect(!extraction.json.contains("\n"))
    }
}
