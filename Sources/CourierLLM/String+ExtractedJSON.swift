import Foundation

extension String {
    /// The JSON contained in this LLM answer as compact one-line text, repaired if needed,
    /// or `nil` when the answer holds no usable JSON (for example a refusal).
    public var extractedJSON: String? {
        try? LLMAnswerDecoder().extract(fromAnswer: self).json
    }
}
