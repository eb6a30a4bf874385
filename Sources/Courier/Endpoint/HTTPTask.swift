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
