public import Foundation

/// The wrapper many APIs put around every answer, errors included:
/// `{"success": Bool, "code": String?, "message": String?, "data": Payload?}`.
///
/// Decode it whole when the wrapper's fields matter, or let ``EnvelopeDecoding`` hand back only
/// `data`. For an error answer, ``EnvelopeHead/read(_:)`` reads the fields without a payload
/// type, from ``NetworkResponse/body`` (see ``NetworkClient/response(_:validatingStatus:)``).
///
/// ```swift
/// let wrapped: Envelope<User> = try await client.request(UserAPI.getUser(id: 1))
/// print(wrapped.data?.name ?? wrapped.message ?? "")
/// ```
public struct Envelope<Payload: Decodable>: Decodable {
    /// Whether the call succeeded (true when the field is absent: the status already said).
    public var success: Bool
    /// A machine-readable code, e.g. `"OK"`, `"CONFLICT"`.
    public var code: String?
    /// A message for people.
    public var message: String?
    /// The payload; nil for errors and for calls that return nothing.
    public var data: Payload?

    /// Creates a value.
    public init(success: Bool, code: String? = nil, message: String? = nil, data: Payload? = nil) {
        self.success = success
        self.code = code
        self.message = message
        self.data = data
    }

    private enum CodingKeys: String, CodingKey {
        case success, code, message, data
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        success = try container.decodeIfPresent(Bool.self, forKey: .success) ?? true
        code = try container.decodeIfPresent(String.self, forKey: .code)
        message = try container.decodeIfPresent(String.self, forKey: .message)
        data = try container.decodeIfPresent(Payload.self, forKey: .data)
    }
}

extension Envelope: Sendable where Payload: Sendable {}
extension Envelope: Equatable where Payload: Equatable {}
extension Envelope: Encodable where Payload: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(success, forKey: .success)
        try container.encodeIfPresent(code, forKey: .code)
        try container.encodeIfPresent(message, forKey: .message)
        try container.encodeIfPresent(data, forKey: .data)
    }
}

/// An ``Envelope``'s fields without `data`: what an error answer says, whatever its payload.
public struct EnvelopeHead: Decodable, Sendable, Equatable {
    /// `success`.
    public var success: Bool?
    /// `code`.
    public var code: String?
    /// `message`.
    public var message: String?

    /// Creates a value.
    public init(success: Bool? = nil, code: String? = nil, message: String? = nil) {
        self.success = success
        self.code = code
        self.message = message
    }

    /// The head of `body`, or nil when `body` is not such a wrapper (no `success` and no `message`).
    public static func read(_ body: Data) -> EnvelopeHead? {
        guard let head = try? JSONDecoder().decode(EnvelopeHead.self, from: body), head.success != nil || head.message != nil
        else { return nil }
        return head
    }
}

/// Decodes an ``Envelope`` and hands back its `data`: an endpoint of a wrapping API sets it as
/// its ``Endpoint/responseDecoding`` and its calls decode straight into the payload type.
///
/// ```swift
/// var responseDecoding: any ResponseDecoding { EnvelopeDecoding() }
/// let user: User = try await client.request(UserAPI.getUser(id: 1))
/// ```
///
/// A missing `data` decodes into an ``EmptyDecodable`` type (``EmptyResponse``); for any other
/// type it is a ``NetworkError/decodingError(_:)``; `success: false` in a 2xx answer is a
/// ``NetworkError/remoteError(_:_:)`` with the wrapper's message.
public struct EnvelopeDecoding: ResponseDecoding {
    /// Creates the decoding.
    public init() {}

    public func decode<T: Decodable>(_ type: T.Type, from body: Data, using decoder: JSONDecoder) throws(NetworkError) -> T {
        let envelope = try JSONResponseDecoding().decode(Envelope<T>.self, from: body, using: decoder)
        guard envelope.success else { throw .remoteError(200, envelope.message ?? envelope.code ?? "success: false") }
        if let data = envelope.data { return data }
        if let empty = T.self as? any EmptyDecodable.Type, let value = empty.emptyValue as? T { return value }
        throw .decodingError(
            DecodingError.valueNotFound(
                T.self,
                .init(
                    codingPath: [EnvelopeKey.data], debugDescription: "The envelope has no data")))
    }

    private enum EnvelopeKey: String, CodingKey {
        case data
    }
}

extension ResponseDecoding where Self == EnvelopeDecoding {
    /// `{success, code, message, data}` → `data`.
    public static var envelope: EnvelopeDecoding { EnvelopeDecoding() }
}

extension StatusMapping {
    /// This mapping, with the message of an ``Envelope`` error answer in place of the raw body in
    /// ``NetworkError/remoteError(_:_:)`` (`remoteError(409, "이미 존재하는 사용자명")`).
    public func readingEnvelopeMessages() -> StatusMapping {
        StatusMapping { response, body in
            let error = self.error(for: response, body: body)
            if case .remoteError(let status, _) = error, let message = EnvelopeHead.read(body)?.message {
                return .remoteError(status, message)
            }
            return error
        }
    }
}
