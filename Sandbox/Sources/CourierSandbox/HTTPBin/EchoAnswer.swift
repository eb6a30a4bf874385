/// What the sandbox's `/echo` answers: the request as the server received it, decoded.
public struct EchoAnswer: Codable, Sendable {
    /// The request method, e.g. "POST".
    public var method: String
    /// The path as it arrived (percent-encoded).
    public var rawPath: String
    /// Each path segment, percent-decoded.
    public var pathSegments: [String]
    /// The query as it arrived.
    public var rawQuery: String?
    /// Query items in order, percent-decoded (a `+` stays a `+`), each `[name, value]`.
    public var query: [[String]]
    /// The request's header fields (names lowercased).
    public var headers: [String: String]
    /// The request's content type, if any.
    public var contentType: String?
    /// How many body bytes arrived.
    public var bodyLength: Int
    /// The body as UTF-8 text, when it is, up to 1 MiB.
    public var body: String?
    /// Form fields of an `application/x-www-form-urlencoded` body, each `[name, value]`.
    public var form: [[String]]?
    /// Parts of a `multipart/form-data` body.
    public var parts: [Part]?
    /// `HTTP/2` or `HTTP/1.1`: the protocol the request came over (nil when not served over a
    /// socket, as in the in-memory sandbox).
    public var httpVersion: String?

    /// One multipart part.
    public struct Part: Codable, Sendable {
        /// The part's field name.
        public var name: String
        /// The file name, for a file part.
        public var fileName: String?
        /// The part's content type, if given.
        public var contentType: String?
        /// How many bytes the part holds.
        public var length: Int
        /// The part as UTF-8 text, when it is.
        public var text: String?
    }

    /// The values of every query item named `name`, in order.
    public func queryValue(_ name: String) -> [String] { query.filter { $0[0] == name }.map { $0[1] } }
}
