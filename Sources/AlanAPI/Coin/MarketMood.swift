import Foundation

/// Today's market mood, as the model judges it from the last 24 hours' news: the coin app's
/// label above today's news ("긍정적") and its line "전체적인 시장은 **호재**예요".
///
/// The model writes it as text, so reading it is tolerant: `positive`, `Neutral`, ` NEGATIVE `
/// and the Korean words (긍정적, 호재, 중립, 보합, 부정적, 악재) are understood; anything else
/// is no mood (``init(answer:)`` answers nil), never a failed section.
///
/// ```swift
/// if let mood = today.marketMood {
///     print(mood.label, mood.headline)   // 긍정적 전체적인 시장은 호재예요
/// }
/// ```
public enum MarketMood: String, Codable, Sendable, CaseIterable {
    /// Good news outweighs bad (호재).
    case positive
    /// Neither (보합세).
    case neutral
    /// Bad news outweighs good (악재).
    case negative

    /// The mood a model wrote, or nil when the text names none of the three.
    ///
    /// ```swift
    /// MarketMood(answer: "Positive")   // .positive
    /// MarketMood(answer: "호재")        // .positive
    /// MarketMood(answer: "bullish")    // nil
    /// ```
    public init?(answer text: String) {
        let word = text.trimmingCharacters(in: .whitespacesAndNewlines.union(.punctuationCharacters)).lowercased()
        switch word {
        case "positive", "긍정", "긍정적", "호재": self = .positive
        case "neutral", "중립", "중립적", "보합", "보합세": self = .neutral
        case "negative", "부정", "부정적", "악재": self = .negative
        default: return nil
        }
    }

    /// Decodes the text tolerantly (``init(answer:)``); a string naming no mood is a `dataCorrupted` error.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let mood = MarketMood(answer: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a market mood: \(text.prefix(40))"))
        }
        self = mood
    }

    /// The label the app showed: 긍정적, 중립적 or 부정적.
    public var label: String {
        switch self {
        case .positive: "긍정적"
        case .neutral: "중립적"
        case .negative: "부정적"
        }
    }

    /// The word of the app's line: 호재, 보합세 or 악재.
    public var verdict: String {
        switch self {
        case .positive: "호재"
        case .neutral: "보합세"
        case .negative: "악재"
        }
    }

    /// The app's line: "전체적인 시장은 호재예요".
    public var headline: String { "전체적인 시장은 \(verdict)예요" }
}
