import Foundation
import Hummingbird
import NIOCore

/// Writes one answer as the Alan service streams it: `id: <ms>` and `event: response` lines
/// and a Python-dict `data:` line per frame — an `action` frame, a `continue` frame per token,
/// then a `complete` frame with the whole answer.
struct AlanStreamWriter {
    let answer: AlanModel.Answer
    let tokenDelayMs: Int

    /// Frames are written in batches of this many when there is no pause between tokens (a
    /// 20 000-token answer is 20 000 frames).
    static let batch = 64

    func write(to writer: inout any ResponseBodyWriter) async throws {
        let start = Date()
        var id = Int(start.timeIntervalSince1970 * 1000)
        func frame(_ pairs: [(String, PythonLiteral.Value)]) -> String {
            id += 1
            return "id: \(id)\nevent: response\ndata: \(PythonLiteral.dict(pairs))\n\n"
        }
        try await writer.write(
            ByteBuffer(
                string: frame([
                    ("type", .text("action")), ("data", .dict([("name", .text(answer.actionName)), ("speak", .text(answer.speak))])),
                ])))
        var pending = ""
        var count = 0
        for token in answer.tokens {
            pending += frame([("type", .text("continue")), ("data", .dict([("content", .text(token))]))])
            count += 1
            if tokenDelayMs > 0 || count % Self.batch == 0 {
                try await writer.write(ByteBuffer(string: pending))
                pending = ""
                if tokenDelayMs > 0 { try await Task.sleep(for: .milliseconds(tokenDelayMs)) }
            }
        }
        pending += frame([("type", .text("complete")), ("data", .dict([("content", .text(answer.content))]))])
        try await writer.write(ByteBuffer(string: pending))
    }
}
