public import Foundation

/// RequestParameters for ``HTTPTask/requestParameters(_:encoding:)``: values may be strings, numbers,
/// booleans, arrays of those (repeated keys in a query), or nested dictionaries (JSON only).
public typealias RequestParameters = [String: any Sendable]

/// What an ``Endpoint`` sends: the seed's cases plus raw data, multipart and query + body.
public indirect enum HTTPTask: Sendable {
    /// No body, no extra query.
    case requestPlain
    /// An `Encodable` value as a JSON body, encoded with the client's `JSONEncoder`.
    case requestJSONEncodable(any Encodable & Sendable)
    /// RequestParameters encoded into the URL query, a form body, or a JSON body.
    case requestParameters(RequestParameters, encoding: ParameterEncoding)
    /// Raw bytes with their content type.
    case requestData(Data, contentType: String)
    /// A `multipart/form-data` body of fields and files, streamed (files are read in chunks).
    case uploadMultipart(MultipartFormData)
    /// A file's bytes as the body, read in chunks while they are sent (never loaded whole), with
    /// its length; sent again on a retry (the file is reopened). A file that cannot be read is
    /// ``NetworkError/encodingError``.
    case uploadFile(URL, contentType: String = "application/octet-stream")
    /// Bytes from an `AsyncSequence` as the body, streamed as they come, with their `length` when
    /// known (else chunked). A one-shot source: never buffered for a replay, so a call with it is
    /// not retried.
    case uploadStream(any AsyncSequence<ArraySlice<UInt8>, any Error> & Sendable, length: Int64?, contentType: String = "application/octet-stream")
    /// Query parameters together with any body-carrying task.
    case requestComposite(query: RequestParameters, body: HTTPTask)
}

/// Where and how ``HTTPTask/requestParameters(_:encoding:)`` puts its parameters.
public enum ParameterEncoding: Sendable, Equatable {
    /// In the URL query, percent-encoded per RFC 3986 (the seed's `url`).
    case url
    /// As an `application/x-www-form-urlencoded` body.
    case form
    /// As a JSON object body.
    case json
}
