public import Courier
public import Foundation
public import HTTPTypes

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A write for an ``Outbox``: the method, the URL given whole (sent byte for byte as given),
/// the header fields and the body.
///
/// Header fields named in ``secretHeaders`` (credentials: `Authorization`, `Cookie`,
/// `Proxy-Authorization`, API-key fields …) are never written to disk: they go with the write
/// while this process sends it, and a later replay gets them again from the client's middlewares
/// (a token middleware) or from ``Outbox/flush(headers:)``.
///
/// ```swift
/// let write = OutboxWrite(method: .post, url: "https://api.example.com/notes", json: Data(#"{"text":"hi"}"#.utf8))
/// let write = try OutboxWrite(NotesAPI.create(note))   // an endpoint's request, body encoded
/// ```
public struct OutboxWrite: Sendable {
    /// Where a write's body comes from.
    public enum Body: Sendable {
        /// No body.
        case none
        /// These bytes.
        case data(Data)
        /// The bytes of this file, read into the entry when the write is put in the outbox.
        case file(URL)
    }

    /// The request method (POST by default).
    public var method: HTTPRequest.Method
    /// The absolute `http(s)` URL, sent as given.
    public var url: String
    /// The header fields, `Content-Type` included.
    public var headerFields: HTTPFields
    /// The body.
    public var body: Body
    /// The idempotency key, exactly as sent (a quoted string for the draft's field); nil mints
    /// one (``Outbox``'s key format). A key already in ``headerFields`` is taken from there.
    public var idempotencyKey: String?
    /// Header names (lowercase) whose values never reach the disk: `Redactor.defaultHeaders` and
    /// any the caller adds.
    public var secretHeaders: Set<String>

    /// A write of `body` to `url` with `method` and `headerFields`.
    public init(
        method: HTTPRequest.Method = .post, url: String, headerFields: HTTPFields = [:], body: Body = .none,
        idempotencyKey: String? = nil, secretHeaders: Set<String> = []
    ) {
        self.method = method
        self.url = url
        self.headerFields = headerFields
        self.body = body
        self.idempotencyKey = idempotencyKey
        self.secretHeaders = Redactor.defaultHeaders.union(secretHeaders.map { $0.lowercased() })
    }

    /// A JSON write: `json` as the body, `Content-Type: application/json`.
    public init(method: HTTPRequest.Method = .post, url: String, json: Data, headerFields: HTTPFields = [:]) {
        var fields = headerFields
        fields[.contentType] = "application/json"
        self.init(method: method, url: url, headerFields: fields, body: .data(json))
    }

    /// The request `endpoint` makes — its URL, method, header fields and encoded body — as a
    /// write. A header field whose value holds one of the endpoint's `secrets` is kept off the disk too.
    ///
    /// - Throws: `NetworkError.encodingError` when the body cannot be encoded or is a one-shot
    ///   stream; `NetworkError.invalidURL` for a URL without scheme or host.
    public init(_ endpoint: some Endpoint, encoder: JSONEncoder = JSONEncoder()) throws(NetworkError) {
        let request = try endpoint.urlRequest(encoder: encoder)
        guard let url = request.url?.absoluteString, let method = HTTPRequest.Method(request.httpMethod ?? "GET") else { throw .invalidURL }
        var fields = HTTPFields()
        var secret: Set<String> = []
        let secrets = endpoint.secrets.filter { $0.count >= 3 }
        for (name, value) in request.allHTTPHeaderFields ?? [:] {
            guard let fieldName = HTTPField.Name(name) else { continue }
            fields.append(HTTPField(name: fieldName, value: value))
            if secrets.contains(where: { value.contains($0) }) { secret.insert(name.lowercased()) }
        }
        var body = Body.none
        if let data = request.httpBody {
            body = .data(data)
        } else if let file = Self.file(of: endpoint.task) {
            body = .file(file)
        }
        self.init(method: method, url: url, headerFields: fields, body: body, secretHeaders: secret)
    }

    private static func file(of task: HTTPTask) -> URL? {
        switch task {
        case .uploadFile(let url, _): url
        case .requestComposite(_, let inner): file(of: inner)
        default: nil
        }
    }
}
