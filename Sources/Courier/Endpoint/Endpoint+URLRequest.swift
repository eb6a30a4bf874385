import CourierTransportCore
public import Foundation
import HTTPTypes
import OpenAPIRuntime

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

extension Endpoint {
    /// This call as a Foundation `URLRequest`, for code that still calls URLSession itself
    /// (Moya's `urlRequest()`, the seminar's `toURLRequest()`): the URL a ``NetworkClient``
    /// would send to — the path percent-encoded, or ``requestTarget`` as given (DESIGN.md, "URLs
    /// as given"), parameters' query appended — the method, the header fields (the task's
    /// `Content-Type` included), the body and the ``timeout``.
    ///
    /// ```swift
    /// let request = try UserAPI.register(body).urlRequest()
    /// let (data, response) = try await URLSession.shared.data(for: request)
    /// ```
    ///
    /// The body is the bytes a client sends; a file (``HTTPTask/uploadFile(_:contentType:)``) is
    /// streamed from disk (`httpBodyStream`; URLSession sends it chunked), a multipart form's
    /// files are read into the body. Without a client there are no middlewares, redirect rules,
    /// limits or status mapping.
    ///
    /// - Throws: ``NetworkError/encodingError`` for a body that cannot be encoded or a file that
    ///   cannot be read, and for ``HTTPTask/uploadStream(_:length:contentType:)`` (a one-shot
    ///   sequence of bytes is no `URLRequest` body: send it with a ``NetworkClient``);
    ///   ``NetworkError/invalidURL`` for a base URL without a scheme or host.
    public func urlRequest(encoder: JSONEncoder = JSONEncoder()) throws(NetworkError) -> URLRequest {
        let built = try RequestBuilder(encoder: encoder).build(self)
        guard let url = URL(string: URLJoin.join(built.baseURL, built.request.path ?? "/")) else { throw .invalidURL }
        var request = URLRequest(url: url)
        request.httpMethod = built.request.method.rawValue
        for field in built.request.headerFields { request.addValue(field.value, forHTTPHeaderField: field.name.rawName) }
        if let timeout { request.timeoutInterval = timeout.seconds }
        switch try Self.body(of: task, encoder: encoder) {
        case .none: break
        case .data(let data): request.httpBody = data
        case .file(let file): request.httpBodyStream = InputStream(url: file)
        }
        return request
    }

    /// The body of `task` as the request builder encodes it, read now.
    private static func body(of task: HTTPTask, encoder: JSONEncoder) throws(NetworkError) -> URLRequestBody {
        switch task {
        case .requestPlain, .requestParameters(_, encoding: .url): return .none
        case .requestJSONEncodable(let value):
            do { return .data(try encoder.encode(value)) } catch { throw .encodingError }
        case .requestParameters(let parameters, encoding: .form): return .data(Data(PercentEncoding.query(parameters).utf8))
        case .requestParameters(let parameters, encoding: .json):
            guard JSONSerialization.isValidJSONObject(parameters),
                let data = try? JSONSerialization.data(withJSONObject: parameters, options: [.sortedKeys])
            else { throw .encodingError }
            return .data(data)
        case .requestData(let data, _): return .data(data)
        case .uploadMultipart(let form):
            var data = Data()
            for segment in form.segments() {
                switch segment {
                case .bytes(let bytes): data.append(contentsOf: bytes)
                case .file(let url):
                    guard let contents = try? Data(contentsOf: url) else { throw .encodingError }
                    data.append(contents)
                }
            }
            return .data(data)
        case .uploadFile(let url, _): return .file(url)
        case .uploadStream: throw .encodingError
        case .requestComposite(_, let inner): return try body(of: inner, encoder: encoder)
        }
    }
}

/// Where a `URLRequest`'s body comes from.
private enum URLRequestBody {
    case none
    case data(Data)
    case file(URL)
}
