import Courier
import CourierTransportCore
public import Foundation
public import HTTPTypes

/// A response as a cache stores it: status, header fields, body, and when it was asked for and
/// received (for its age, RFC 9111 §4.2.3), with the request's values of the fields its `Vary`
/// names (its secondary key, §4.1).
///
/// The body is in memory, or — for a large body a ``DiskCacheStorage`` keeps apart — in a file
/// (``bodyFile``) that is read in chunks when served.
public struct CachedResponse: Sendable, Equatable {
    /// One header field line.
    public struct Field: Sendable, Codable, Equatable {
        /// The field name as received.
        public var name: String
        /// The field value.
        public var value: String

        /// A field line `name: value`.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The absolute URL it answers (the primary key).
    public var url: String
    /// The status code.
    public var status: Int
    /// The reason phrase.
    public var reason: String
    /// The header field lines in order.
    public var fields: [Field]
    /// The body. For a body kept in a file (``bodyFile``) this reads the whole file: stream it
    /// with ``CachedBodyFile/chunks(in:)`` instead. Setting it keeps the body in memory.
    public var body: Data {
        get {
            switch content {
            case .data(let data): data
            case .file(let file): file.readAll() ?? Data()
            }
        }
        set { content = .data(newValue) }
    }
    /// The file the body is kept in, when a disk store keeps it apart; nil for a body in memory.
    public var bodyFile: CachedBodyFile? {
        if case .file(let file) = content { file } else { nil }
    }
    /// The body's length in bytes.
    public var bodyLength: Int {
        switch content {
        case .data(let data): data.count
        case .file(let file): file.length
        }
    }
    /// Where the body is.
    var content: Content
    /// When the request that produced it was sent.
    public var requestTime: Date
    /// When it was received (or last validated).
    public var responseTime: Date
    /// The request's normalised values of the fields `Vary` names (lowercased name → value; a
    /// missing field is absent).
    public var varyValues: [String: String]

    /// A stored response made of a received head and body.
    public init(url: String, head: HTTPResponse, body: Data, requestTime: Date, responseTime: Date, varyValues: [String: String]) {
        self.init(url: url, head: head, content: .data(body), requestTime: requestTime, responseTime: responseTime, varyValues: varyValues)
    }

    /// A stored response made of its parts, for content that did not come over HTTP (a
    /// computed document kept with a `Cache-Control` lifetime, say).
    ///
    /// ```swift
    /// let entry = CachedResponse(url: "urn:app:summary", fields: [.init(name: "Cache-Control", value: "max-age=3600")],
    ///                            body: data, requestTime: Date(), responseTime: Date())
    /// ```
    public init(
        url: String, status: Int = 200, reason: String = "OK", fields: [Field], body: Data,
        requestTime: Date, responseTime: Date, varyValues: [String: String] = [:]
    ) {
        self.init(
            url: url, status: status, reason: reason, fields: fields, content: .data(body),
            requestTime: requestTime, responseTime: responseTime, varyValues: varyValues)
    }

    /// A stored response whose body is `content`.
    init(
        url: String, status: Int, reason: String, fields: [Field], content: Content,
        requestTime: Date, responseTime: Date, varyValues: [String: String]
    ) {
        self.url = url
        self.status = status
        self.reason = reason
        self.fields = fields
        self.content = content
        self.requestTime = requestTime
        self.responseTime = responseTime
        self.varyValues = varyValues
    }

    /// A stored response made of a received head and a body in `content`.
    init(url: String, head: HTTPResponse, content: Content, requestTime: Date, responseTime: Date, varyValues: [String: String]) {
        self.init(
            url: url, status: head.status.code, reason: head.status.reasonPhrase,
            fields: head.headerFields.map { Field(name: $0.name.rawName, value: $0.value) },
            content: content, requestTime: requestTime, responseTime: responseTime, varyValues: varyValues)
    }

    /// Where a stored body is.
    enum Content: Sendable, Equatable {
        /// In memory.
        case data(Data)
        /// In a file of a disk store.
        case file(CachedBodyFile)
    }

    /// The stored head.
    public var head: HTTPResponse {
        var head = HTTPResponse(status: .init(code: status, reasonPhrase: reason))
        head.headerFields = headerFields
        return head
    }

    /// The stored header fields.
    public var headerFields: HTTPFields {
        var result = HTTPFields()
        for field in fields {
            if let name = HTTPField.Name(field.name) { result.append(HTTPField(name: name, value: field.value)) }
        }
        return result
    }

    /// Bytes it takes, roughly: body plus header text (what byte bounds count).
    public var cost: Int {
        bodyLength + url.utf8.count + fields.reduce(64) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
    }

    /// The header fields' values of `name` joined as one line.
    func value(_ name: HTTPField.Name) -> String? {
        values(named: name.canonicalName)
    }

    /// The values of the fields named `lowercasedName` joined as one line (no allocation per
    /// field: this runs on every hit).
    func values(named lowercasedName: String) -> String? {
        var result: String?
        for field in fields where Self.equalsIgnoringASCIICase(field.name, lowercasedName) {
            result = result.map { $0 + ", " + field.value } ?? field.value
        }
        return result
    }

    /// Whether `name` is `lowercased` but for the case of ASCII letters.
    static func equalsIgnoringASCIICase(_ name: String, _ lowercased: String) -> Bool {
        name.utf8.elementsEqual(lowercased.utf8) { byte, other in
            (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) == other
        }
    }

    /// The field names `Vary` lists (lowercased); `["*"]` for `Vary: *`.
    var varyNames: [String] { Self.varyNames(value(.vary)) }

    /// Whether a request with `fields` may be answered by this response (its `Vary` fields match).
    func matches(_ request: HTTPFields) -> Bool {
        let names = varyNames
        if names.contains("*") { return false }
        return names.allSatisfy { Self.normalised(request, $0) == varyValues[$0] }
    }

    /// The field names a `Vary` value lists, lowercased.
    static func varyNames(_ vary: String?) -> [String] {
        guard let vary else { return [] }
        return vary.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
    }

    /// Request fields whose list members are compared without regard to order or case.
    static let unorderedFields: Set<String> = ["accept-language", "accept-encoding"]

    /// A request field's value for secondary-key comparison: lines joined, spaces around commas dropped.
    static func normalised(_ request: HTTPFields, _ name: String) -> String? {
        guard let fieldName = HTTPField.Name(name) else { return nil }
        let values = request[values: fieldName]
        guard !values.isEmpty else { return nil }
        // A credential is never written down; the primary key already tells credentials apart.
        if CacheCredentials.names.contains(name) { return CacheCredentials.presentMarker }
        var items = values.joined(separator: ",").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        // Lists whose order and case carry no meaning compare as sets.
        if unorderedFields.contains(name) { items = items.map { $0.lowercased() }.sorted() }
        return items.joined(separator: ",")
    }

    /// The request's values of the fields `vary` lists.
    static func varyValues(_ request: HTTPFields, vary: String?) -> [String: String] {
        var values: [String: String] = [:]
        for name in varyNames(vary) { values[name] = normalised(request, name) }
        return values
    }
}

extension CachedResponse: Codable {
    private enum CodingKeys: String, CodingKey {
        case url, status, reason, fields, body, requestTime, responseTime, varyValues
    }

    /// Decodes the keys an encoded response has (the body as `Data`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            url: try container.decode(String.self, forKey: .url), status: try container.decode(Int.self, forKey: .status),
            reason: try container.decode(String.self, forKey: .reason), fields: try container.decode([Field].self, forKey: .fields),
            content: .data(try container.decode(Data.self, forKey: .body)),
            requestTime: try container.decode(Date.self, forKey: .requestTime),
            responseTime: try container.decode(Date.self, forKey: .responseTime),
            varyValues: try container.decode([String: String].self, forKey: .varyValues))
    }

    /// Encodes every property, the body (read whole when it is in a file) as `Data`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(url, forKey: .url)
        try container.encode(status, forKey: .status)
        try container.encode(reason, forKey: .reason)
        try container.encode(fields, forKey: .fields)
        try container.encode(body, forKey: .body)
        try container.encode(requestTime, forKey: .requestTime)
        try container.encode(responseTime, forKey: .responseTime)
        try container.encode(varyValues, forKey: .varyValues)
    }
}
