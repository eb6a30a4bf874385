public import Courier
public import CourierLLM
public import Foundation

/// Lets an `Endpoint` say its response is an LLM answer: `request(_:as:)` then decodes through
/// CourierLLM's `LLMAnswerDecoder` (extraction + repair) instead of plain JSON.
///
/// ```swift
/// enum AlanAPI: Endpoint {
///     // … the answer text is in the `content` field of the JSON response
///     var responseDecoding: any ResponseDecoding { LLMResponseDecoding(keyPath: ["content"]) }
/// }
/// let weekly = try await client.request(AlanAPI.question(prompt), as: CoinWeekly.self)
/// ```
///
/// A refusal or an answer without usable JSON throws `NetworkError/modelRefusal(_:)` whose
/// message is the model's own text; JSON that cannot be the requested type throws
/// `NetworkError/decodingError(_:)`.
public struct LLMResponseDecoding: ResponseDecoding {
    /// Where the answer text sits in a JSON response (e.g. `["content"]`); empty: the whole body is the answer.
    public var keyPath: [String]
    /// A schema the JSON must fit, instead of the shape learned from the requested type.
    public var schema: JSONSchema?

    /// Creates the decoding.
    public init(keyPath: [String] = [], schema: JSONSchema? = nil) {
        self.keyPath = keyPath
        self.schema = schema
    }

    public func decode<T: Decodable>(_ type: T.Type, from body: Data, using decoder: JSONDecoder) throws(NetworkError) -> T {
        let answer = try answerText(in: body)
        do {
            return try LLMAnswerDecoder(decoder: decoder, schema: schema).decode(T.self, fromAnswer: answer).value
        } catch {
            switch error {
            case .noJSON(let modelText):
                throw .modelRefusal(modelText)
            case .typeMismatch(let candidates, let lastError):
                throw .decodingError(
                    .dataCorrupted(
                        .init(
                            codingPath: [],
                            debugDescription: "\(candidates) JSON candidate(s) in the answer, none is a \(T.self): \(lastError)"
                        )))
            }
        }
    }

    /// The answer text: the body itself, or the string at ``keyPath`` in a JSON body.
    func answerText(in body: Data) throws(NetworkError) -> String {
        guard !keyPath.isEmpty else { return String(decoding: body, as: UTF8.self) }
        var node: Any? = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
        for key in keyPath { node = (node as? [String: Any])?[key] }
        guard let node else {
            throw .decodingError(
                .keyNotFound(
                    AnswerKey(keyPath.last ?? ""),
                    .init(
                        codingPath: keyPath.dropLast().map(AnswerKey.init), debugDescription: "No answer at \(keyPath.joined(separator: "."))"
                    )))
        }
        if let text = node as? String { return text }
        // The field already holds structured JSON: decode it as it is.
        let data = (try? JSONSerialization.data(withJSONObject: node, options: [.fragmentsAllowed])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}

/// A coding key for the answer's key path.
struct AnswerKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
