public import Foundation

/// How a successful response body becomes a value. JSON through the client's `JSONDecoder` is
/// the default; CourierLLM provides one that extracts and repairs JSON from an LLM's answer.
public protocol ResponseDecoding: Sendable {
    /// Decodes `type` from `body`. Throw ``NetworkError`` (usually ``NetworkError/decodingError(_:)``).
    func decode<T: Decodable>(_ type: T.Type, from body: Data, using decoder: JSONDecoder) throws(NetworkError) -> T
}

/// Plain JSON through the client's `JSONDecoder`.
public struct JSONResponseDecoding: ResponseDecoding {
    /// Creates the decoding.
    public init() {}

    public func decode<T: Decodable>(_ type: T.Type, from body: Data, using decoder: JSONDecoder) throws(NetworkError) -> T {
        do {
            return try decoder.decode(T.self, from: body)
        } catch let error as DecodingError {
            throw .decodingError(error)
        } catch {
            throw NetworkError(error)
        }
    }
}

extension ResponseDecoding where Self == JSONResponseDecoding {
    /// Plain JSON.
    public static var json: JSONResponseDecoding { JSONResponseDecoding() }
}

/// A type that stands for "no content": an empty body (204, 205, or zero bytes) decodes into
/// ``emptyValue`` instead of failing.
public protocol EmptyDecodable: Decodable {
    /// The value for an empty body.
    static var emptyValue: Self { get }
}

/// The answer of a call that returns nothing (204 No Content, a DELETE …).
public struct EmptyResponse: EmptyDecodable, Sendable, Equatable, Encodable {
    /// Creates the empty value.
    public init() {}
    public init(from decoder: any Decoder) throws {}
    public static var emptyValue: EmptyResponse { EmptyResponse() }
}
