/// What `GET /alan/stats` answers: calls per route and the stand-in's settings.
public struct AlanStats: Codable, Sendable, Equatable {
    /// `GET /alan/api/v1/question` calls that reached the model (after the key, length and quota checks).
    public var questions: Int
    /// `GET /alan/api/v1/question/sse-streaming` calls that reached the model.
    public var streams: Int
    /// `DELETE /alan/api/v1/reset-state` calls that reset a conversation.
    public var resets: Int
    /// Answers 401 for an exhausted quota.
    public var quotaRefusals: Int
    /// Answers 500 on purpose (``failNext``).
    public var injectedFailures: Int
    /// Every request to `/alan/api/…`, refused ones included (the client id is never kept).
    public var requests: Int
    /// Clients seen.
    public var clients: Int
    /// With `?client_id=`: that client's conversation length since its last reset.
    public var conversationTurns: Int?
    /// With `?client_id=`: that client's questions counted against the quota.
    public var quotaUsed: Int?
    /// Questions a client may ask before 401.
    public var quota: Int
    /// 500s still to answer.
    public var failNext: Int
    /// Milliseconds the model takes per section (`overview`, `weekly`, `today`, `other`).
    public var latencyMs: [String: Int]
    /// Milliseconds between streamed tokens.
    public var tokenDelayMs: Int
}
