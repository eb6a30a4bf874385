/// What `POST` or `PUT /upload` answers: what arrived, counted and hashed as it streamed in.
///
/// ```swift
/// let receipt = try await client.request(upload(file), as: UploadReceipt.self)
/// #expect(receipt.bytes == 200_000_000 && receipt.sha256 == expectedDigest)
/// ```
///
/// Encoded with every key: an absent field is `null`, not left out.
public struct UploadReceipt: Codable, Sendable, Equatable {
    /// Body bytes received.
    public var bytes: Int
    /// The body's SHA-256, 64 lowercase hex digits.
    public var sha256: String
    /// The request's `Content-Length`; nil for a chunked body (or an unparseable field).
    public var declaredLength: Int?
    /// The request's `Content-Type`, as sent.
    public var contentType: String?

    /// Creates a receipt.
    public init(bytes: Int, sha256: String, declaredLength: Int? = nil, contentType: String? = nil) {
        self.bytes = bytes
        self.sha256 = sha256
        self.declaredLength = declaredLength
        self.contentType = contentType
    }

    private enum CodingKeys: String, CodingKey {
        case bytes, sha256, declaredLength, contentType
    }

    /// Encodes every field, nil ones as `null`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(bytes, forKey: .bytes)
        try container.encode(sha256, forKey: .sha256)
        try container.encode(declaredLength, forKey: .declaredLength)
        try container.encode(contentType, forKey: .contentType)
    }
}
