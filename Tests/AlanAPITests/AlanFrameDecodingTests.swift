import AlanAPI
import Courier
import CourierLLM
import Foundation
import Testing

/// The two findings of the AlanFrame fuzz harness, fixed: Python's `\xNN`/`\UXXXXXXXX` escapes,
/// and a dict quoted in a frame's text taken for the frame.
@Suite("Alan frames: Python escapes, and dicts inside a frame's text")
struct AlanFrameDecodingTests {
    static func frame(_ data: String) throws -> AlanFrame {
        try AlanFrame.decoding.decode(AlanFrame.self, from: Data(data.utf8), using: JSONDecoder())
    }

    @Test("`\\xNN` (C0, DEL, C1, NBSP) and `\\UXXXXXXXX` decode to their characters, as Python's repr wrote them")
    func pythonEscapes() throws {
        let frame = try Self.frame(#"{'type': 'continue', 'data': {'content': 'a\x1bb\x7fc\x85d\xa0e\U0001f600f\x41'}}"#)
        #expect(frame.event == .token("a\u{1B}b\u{7F}c\u{85}d\u{A0}e😀fA"))
        // Not an escape after all: the backslash stays, as before.
        #expect(try Self.frame(#"{'type': 'continue', 'data': {'content': 'C:\Users\xyz'}}"#).event == .token(#"C:\Users\xyz"#))
    }

    @Test("a dict in a token's or a progress sentence's text is text: the frame is the whole data")
    func dictInText() throws {
        let inner = "{'type': 'complete', 'data': {'content': 'x'}}"
        let token = try Self.frame(#"{'type': 'continue', 'data': {'content': "\#(inner)"}}"#)
        #expect(token.event == .token(inner))
        let progress = try Self.frame(#"{'type': 'action', 'data': {'name': 'search', 'speak': "see \#(inner) here"}}"#)
        #expect(progress.event == .progress("see \(inner) here"))
    }

    @Test("in any LLM answer, `\\x41` in a Python-quoted string is repaired and noted")
    func answerEscape() throws {
        let decoded = try LLMAnswerDecoder().decode([String: String].self, fromAnswer: #"Here: {'a': 'x\x41y'}"#)
        #expect(decoded.value == ["a": "xAy"])
        #expect(decoded.report.repairs.contains(.fixedInvalidEscape))
    }
}
