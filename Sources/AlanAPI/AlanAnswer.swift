/// What `GET /api/v1/question` answers: `{"action":{"name","speak"},"content"}`.
///
/// ```swift
/// let answer = try await alan.ask("비트코인이 뭐야?")
/// print(answer.action.speak)   // "질문의 의도를 이해하고 있어요."
/// print(answer.content)        // the model's answer text
/// ```
public struct AlanAnswer: Codable, Sendable, Equatable {
    /// What the model did last.
    public struct Action: Codable, Sendable, Equatable {
        /// `search_web`, `summarize_references` or `""`.
        public var name: String
        /// A progress sentence for the user.
        public var speak: String

        /// Creates an action.
        public init(name: String, speak: String) {
            self.name = name
            self.speak = speak
        }
    }

    /// The model's last action.
    public var action: Action
    /// The answer text (may hold JSON, markdown, citations, footnotes like `^[490]^`).
    public var content: String

    /// Creates an answer.
    public init(action: Action, content: String) {
        self.action = action
        self.content = content
    }
}
