import CourierTransportCore
package import Foundation
package import HTTPTypes
package import OpenAPIRuntime

/// Turns an ``Endpoint`` into what a `ClientTransport` sends.
package struct RequestBuilder: Sendable {
    let encoder: JSONEncoder
    /// Replaces every endpoint's base URL when set (``NetworkClient/Configuration/baseURL``).
    var baseURL: URL? = nil

    package struct Built: Sendable {
        package var request: HTTPRequest
        package var body: HTTPBody?
        package var baseURL: URL
        /// The base URL's host, lowercased, when its scheme is plain `http` (for the transport-security check).
        package var plainHTTPHost: String?
        /// The request body, when it is a file (``HTTPTask/uploadFile(_:contentType:)``).
        package var file: RequestFile?
    }

    func build(_ endpoint: some Endpoint) throws(NetworkError) -> Built {
        var baseURL = self.baseURL ?? endpoint.baseURL
        guard let scheme = baseURL.scheme, let host = baseURL.host else { throw .invalidURL }
        // Host names are case-insensitive; lowercased, they match the transport's tables
        // (AsyncHTTPClient's `--resolve` map, connection pools) and the cookie jar's.
        if host.utf8.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }),
            var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: true)
        {
            components.host = host.lowercased()
            if let lowered = components.url { baseURL = lowered }
        }
        let plainHTTPHost = scheme.lowercased() == "http" ? host.lowercased() : nil
        var path = endpoint.requestTarget.map { RequestTarget.normalized($0) } ?? Self.path(endpoint.pathSegments)
        var fields = HTTPFields()
        var query: RequestParameters = [:]
        var body: HTTPBody?
        var file: RequestFile?
        try encode(endpoint.task, query: &query, fields: &fields, body: &body, file: &file)
        if !query.isEmpty { path += Self.querySeparator(after: path) + PercentEncoding.query(query) }
        if let headers = endpoint.headers {
            for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
                guard let fieldName = HTTPField.Name(name) else { throw .encodingError }
                fields[fieldName] = value
            }
        }
        let request = HTTPRequest(method: endpoint.method, scheme: nil, authority: nil, path: path, headerFields: fields)
        return Built(request: request, body: body, baseURL: baseURL, plainHTTPHost: plainHTTPHost, file: file)
    }

    /// `segments`, each percent-encoded, as an absolute path (`/` when there are none).
    private static func path(_ segments: [String]) -> String {
        var path = ""
        for segment in segments {
            path += "/" + PercentEncoding.encode(segment)
        }
        return path.isEmpty ? "/" : path
    }

    /// What goes between `path` (maybe with a query given as is) and the parameters' query.
    private static func querySeparator(after path: String) -> String {
        guard let last = path.utf8.last, path.utf8.contains(UInt8(ascii: "?")) else { return "?" }
        return last == UInt8(ascii: "?") || last == UInt8(ascii: "&") ? "" : "&"
    }

    private func encode(
        _ task: HTTPTask, query: inout RequestParameters, fields: inout HTTPFields, body: inout HTTPBody?, file: inout RequestFile?
    ) throws(NetworkError) {
        switch task {
        case .requestPlain:
            break
        case .requestJSONEncodable(let value):
            let data: Data
            do { data = try encoder.encode(value) } catch { throw .encodingError }
            fields[.contentType] = "application/json"
            body = HTTPBody(data)
        case .requestParameters(let parameters, let encoding):
            switch encoding {
            case .url:
                query.merge(parameters) { _, new in new }
            case .form:
                fields[.contentType] = "application/x-www-form-urlencoded"
                body = HTTPBody(PercentEncoding.query(parameters))
            case .json:
                guard JSONSerialization.isValidJSONObject(parameters),
                    let data = try? JSONSerialization.data(withJSONObject: parameters, options: [.sortedKeys])
                else { throw .encodingError }
                fields[.contentType] = "application/json"
                body = HTTPBody(data)
            }
        case .requestData(let data, let contentType):
            fields[.contentType] = contentType
            body = HTTPBody(data)
        case .uploadMultipart(let form):
            fields[.contentType] = form.contentType
            body = try form.body()
        case .uploadFile(let url, let contentType):
            fields[.contentType] = contentType
            let made = try FileBody.make(url)
            body = made
            file = RequestFile(body: made, path: url.path)
        case .uploadStream(let bytes, let length, let contentType):
            fields[.contentType] = contentType
            body = HTTPBody(bytes, length: length.map { .known($0) } ?? .unknown, iterationBehavior: .single)
        case .requestComposite(let parameters, let inner):
            query.merge(parameters) { _, new in new }
            try encode(inner, query: &query, fields: &fields, body: &body, file: &file)
        }
    }
}
