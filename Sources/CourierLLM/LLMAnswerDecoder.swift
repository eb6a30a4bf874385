public import Foundation

/// Turns an LLM's answer — free text that should contain JSON — into a `Decodable` value,
/// with a typed report of the repairs that were needed.
///
/// Stages, cheapest first: a strict decode of the whole answer; then candidates (fenced
/// blocks, JSON values found by a scan, JSON nested in a string or a wrapper field); then
/// tolerant parsing and repair of each candidate. The expected type (or the schema) decides
/// which candidate wins. An answer without usable JSON, such as a refusal, throws
/// `LLMDecodingError.noJSON` carrying the model's own text.
public struct LLMAnswerDecoder: Sendable {
    /// The decoder used for the final decode (its strategies are honoured).
    public let decoder: JSONDecoder
    /// The schema the JSON must fit; when `nil`, `decode` learns the shape from the type.
    public let schema: JSONSchema?

    /// At most this many candidates are handed to the decoder per answer.
    static let maxAttempts = 12

    /// Creates an answer decoder.
    public init(decoder: JSONDecoder = JSONDecoder(), schema: JSONSchema? = nil) {
        self.decoder = decoder
        self.schema = schema
    }

    /// Decodes a `T` from an LLM answer.
    ///
    /// - Throws: `LLMDecodingError.noJSON` when the answer has no usable JSON (the error carries
    ///   the model's text), `LLMDecodingError.typeMismatch` when JSON was found but none of it
    ///   decodes as `T`.
    public func decode<T: Decodable>(_ type: T.Type, fromAnswer answer: String) throws(LLMDecodingError) -> LLMDecoded<T> {
        if Self.mayBeStrictJSON(answer), let value = try? decoder.decode(T.self, from: Data(answer.utf8)) {
            return LLMDecoded(value: value, report: RepairReport())
        }
        let shape = schema?.shape ?? ShapeRecorder.shape(of: T.self)
        let result = AnswerExtractor(shape: shape).run(answer)
        var attempts = 0
        var lastError = "no candidate fits the expected shape"
        for interpretation in result.interpretations where interpretation.score > 0 {
            guard attempts < Self.maxAttempts else { break }
            attempts += 1
            do {
                let value = try decoder.decode(T.self, from: interpretation.value.compactData(capacity: interpretation.size + 64))
                return LLMDecoded(value: value, report: interpretation.report)
            } catch {
                lastError = Self.describe(error)
            }
        }
        if attempts > 0 { throw .typeMismatch(candidates: attempts, lastError: lastError) }
        throw Self.failure(result)
    }

    /// Decodes a `T` from `text` read whole as one value — JSON or a Python dict, repaired as
    /// ``decode(_:fromAnswer:)`` repairs — without looking for candidates inside it; nil when the
    /// text is not one value, or the value is not a `T`. For protocols whose every message is one
    /// value (the Alan stream's frames): a dict quoted in a frame's text is never taken for the frame.
    package func decodeWhole<T: Decodable>(_ type: T.Type, from text: String) -> T? {
        let bytes = Array(text.utf8)
        var parser = TolerantParser(bytes: bytes, start: 0, end: bytes.count)
        while parser.pos < bytes.count, ByteClass.isSpace(bytes[parser.pos]) { parser.pos += 1 }
        guard let value = parser.parseTopLevel() else { return nil }
        while parser.pos < bytes.count, ByteClass.isSpace(bytes[parser.pos]) { parser.pos += 1 }
        guard parser.pos == bytes.count, !parser.truncated, parser.tooDeepAt == nil else { return nil }
        return try? decoder.decode(T.self, from: value.compactData(capacity: bytes.count + 64))
    }

    /// False when the answer cannot be strict JSON: an object whose first key is not in double
    /// quotes (a Python dict such as the Alan stream's `{'type': …}`), so the strict attempt,
    /// whose failure costs as much as the repair, is skipped.
    static func mayBeStrictJSON(_ answer: String) -> Bool {
        var bytes = answer.utf8.lazy.filter { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }.makeIterator()
        guard bytes.next() == UInt8(ascii: "{") else { return true }
        let next = bytes.next()
        return next == UInt8(ascii: "\"") || next == UInt8(ascii: "}")
    }

    /// Extracts the JSON text from an LLM answer.
    ///
    /// - Parameters:
    ///   - answer: The model's answer.
    ///   - schema: The schema the JSON should fit; defaults to the decoder's `schema`. Without
    ///     any schema the most prominent JSON value (fenced first, then the largest) is returned.
    /// - Returns: Compact one-line JSON text (keys in their original order) and the repairs.
    public func extract(fromAnswer answer: String, schema: JSONSchema? = nil) throws(LLMDecodingError) -> JSONExtraction {
        let shape = (schema ?? self.schema)?.shape
        let result = AnswerExtractor(shape: shape).run(answer)
        guard let best = result.interpretations.first, best.score > 0 else { throw Self.failure(result) }
        return JSONExtraction(json: best.value.compactText(capacity: best.size + 64), report: best.report)
    }

    /// `noJSON` with the model's text, or `typeMismatch` when the model clearly answered with
    /// JSON of another shape.
    private static func failure(_ result: AnswerExtractor.Result) -> LLMDecodingError {
        let answered = result.candidates.filter { candidate in
            (candidate.coversRegion || candidate.inFence) && AnswerExtractor.messageText(of: candidate.value) == nil
        }
        if answered.isEmpty { return .noJSON(modelText: result.modelText) }
        return .typeMismatch(candidates: result.candidates.count, lastError: "the JSON in the answer does not have the expected shape")
    }

    private static func describe(_ error: any Error) -> String {
        guard let decodingError = error as? DecodingError else { return String(describing: error) }
        let context: DecodingError.Context
        switch decodingError {
        case .typeMismatch(_, let value), .valueNotFound(_, let value), .keyNotFound(_, let value), .dataCorrupted(let value):
            context = value
        @unknown default:
            return String(describing: error)
        }
        let path = context.codingPath.map(\.stringValue).joined(separator: ".")
        return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
    }
}
