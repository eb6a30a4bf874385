public import Courier

/// The wrapper around every User API answer, errors included:
/// `{"success":Bool,"code":String?,"message":String?,"data":T?}` — Courier's `Envelope`
/// under the seminar's name.
///
/// ```swift
/// let client = NetworkClient(configuration: .init(baseURL: server))
/// let wrapped: APIResponse<UserResponse> = try await client.request(UserAPI.getUser(id: 1))
/// print(wrapped.data?.name ?? wrapped.message ?? "")
/// ```
public typealias APIResponse<T: Decodable> = Envelope<T>
