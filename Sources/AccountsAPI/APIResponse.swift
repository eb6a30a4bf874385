import Foundation

/// The wrapper around every User API answer, errors included (seed 003):
/// `{"success":Bool,"code":String?,"message":String?,"data":T?}`.
///
/// ```swift
/// let wrapped: APIResponse<UserResponse> = try await client.request(UserAPI.getUser(id: 1).on(server))
/// print(wrapped.data?.name ?? wrapped.message ?? "")
/// ```
public struct APIResponse<T: Decodable & Sendable>: Decodable, Sendable {
    /// Whether the call succeeded.
    public var success: Bool
    /// A machine-readable code: `"OK"`, `"CREATED"`, `"CONFLICT"`, `"UNAUTHORIZED"` …
    public var code: String?
    /// A message for people, e.g. `"이미 존재하는 사용자명"`.
    public var message: String?
    /// The payload; nil for errors and for calls that return nothing (delete).
    public var data: T?

    /// Creates a value.
    public init(success: Bool, code: String? = nil, message: String? = nil, data: T? = nil) {
        self.success = success
        self.code = code
        self.message = message
        self.data = data
    }
}

extension APIResponse: Equatable where T: Equatable {}
extension APIResponse: Encodable where T: Encodable {}

/// The wrapper's fields without `data`, for reading an error answer whatever its payload.
struct APIResponseHead: Decodable, Sendable {
    var success: Bool?
    var code: String?
    var message: String?

    /// The head of `body`, or nil when `body` is not the wrapper.
    static func read(_ body: Data) -> APIResponseHead? {
        guard let head = try? JSONDecoder().decode(APIResponseHead.self, from: body),
            head.success != nil || head.message != nil
        else { return nil }
        return head
    }
}
