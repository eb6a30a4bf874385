import Foundation

/// Why an LLM answer could not be turned into the requested value.
public enum LLMDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The answer holds no usable JSON (a refusal or plain prose). `modelText` is the model's
    /// own text, trimmed, so it can be shown to the user instead of a generic failure.
    case noJSON(modelText: String)
    /// JSON was found, but none of the `candidates` could be decoded as the requested type;
    /// `lastError` describes the last decoding failure.
    case typeMismatch(candidates: Int, lastError: String)

    /// A one-line description of the error.
    public var description: String {
        switch self {
        case .noJSON(let text): return "no JSON in answer: \(text)"
        case .typeMismatch(let count, let error):
            return "\(count) JSON candidate(s) found, none matches the expected type: \(error)"
        }
    }
}
