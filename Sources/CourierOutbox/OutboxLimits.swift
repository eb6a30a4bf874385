/// How much an ``Outbox`` holds. A full outbox refuses a new write (``OutboxError/full(entries:bytes:)``);
/// it never drops an old one.
public struct OutboxLimits: Sendable, Equatable {
    /// The most entries, queued and failed together (1,000 by default).
    public var maxEntries: Int
    /// The most bytes of entry files together (64 MiB by default).
    public var maxBytes: Int
    /// The most bytes of a failing answer's body kept with a failed entry.
    public static let maxAnswerBytes = 64 << 10

    /// Limits of `maxEntries` entries and `maxBytes` bytes.
    public init(maxEntries: Int = 1_000, maxBytes: Int = 64 << 20) {
        self.maxEntries = max(1, maxEntries)
        self.maxBytes = max(1, maxBytes)
    }
}
