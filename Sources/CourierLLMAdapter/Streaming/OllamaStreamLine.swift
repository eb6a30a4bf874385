/// One line of an Ollama-style NDJSON stream, as `ollamaPieces(_:options:)`
/// reads it: `/api/generate`'s `{"model":…,"response":"…","done":false}`, `/api/chat`'s
/// `{"message":{"role":"assistant","content":"…"},"done":false}`, the last line's
/// `"done":true`, or `{"error":"…"}`. Other members (timings, `context`) are ignored.
public struct OllamaStreamLine: Decodable, Sendable, Equatable {
    /// The chat shape's message.
    public struct Message: Decodable, Sendable, Equatable {
        /// The next characters of the answer.
        public var content: String?
    }

    /// The next characters of the answer (`/api/generate`).
    public var response: String?
    /// The next characters of the answer (`/api/chat`).
    public var message: Message?
    /// Whether this is the last line.
    public var done: Bool?
    /// Why the stream failed.
    public var error: String?

    /// The text of this line: the `response`, else the `message`'s `content`.
    public var text: String { response ?? message?.content ?? "" }
}
