public import CourierLLM

/// What a streamed LLM answer decoded as a `T` gives as it arrives.
///
/// ```swift
/// for try await update in alan.stream(CoinPrompts.weekly(for: .bitcoin), as: CoinWeekly.self, task: .coinReport) {
///     switch update {
///     case .partial(let snapshot, _): show(snapshot.decode(CoinWeekly.Partial.self).value)
///     case .complete(let weekly): show(weekly)
///     }
/// }
/// ```
public enum LLMPartial<T: Sendable>: Sendable {
    /// The JSON decoded so far, open strings and containers closed where they stand. With
    /// `restart`, later text changed which JSON in the answer wins: this snapshot replaces the
    /// previous one instead of growing it (rare; between restarts snapshots only grow).
    case partial(JSONSnapshot, restart: Bool)
    /// The whole answer decoded as `T` — the value a whole-answer call returns for the same text.
    case complete(T)

    /// The snapshot of a `.partial`, nil for `.complete`.
    public var snapshot: JSONSnapshot? {
        if case .partial(let snapshot, _) = self { return snapshot }
        return nil
    }

    /// The value of a `.complete`, nil for a `.partial`.
    public var value: T? {
        if case .complete(let value) = self { return value }
        return nil
    }
}

/// A piece of an LLM's answer text as a streaming API sends it.
public enum LLMTextPiece: Sendable, Equatable {
    /// The next characters of the answer (an OpenAI `delta.content`, an Ollama `response`, an
    /// Alan `continue` frame).
    case delta(String)
    /// The whole answer at once (Alan's `complete` frame), which replaces the deltas before it.
    case whole(String)
}
