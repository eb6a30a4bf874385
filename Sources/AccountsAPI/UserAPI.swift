public import Courier
public import Foundation
public import HTTPTypes

/// The seminar's User API as an `Endpoint` enum: one case per call.
///
/// ```swift
/// let client = NetworkClient(configuration: .init(baseURL: URL(string: "http://127.0.0.1:8080")!))
/// let login: APIResponse<LoginResponse> = try await client.request(
///     UserAPI.login(LoginRequest(username: "johndoe", password: "P@ssw0rd!")))
/// ```
///
/// Calls 3–5 need `Authorization: Bearer <token>` from the login; they say so in their
/// ``traits`` and ``Accounts`` attaches (and refreshes) it for you. A non-2xx answer becomes the usual `NetworkError` (401 → `unauthorized`, 404 →
/// `notFound`, 429 → `rateLimited`), and the others `remoteError(status, message)` with the
/// wrapper's `message`, e.g. `remoteError(409, "이미 존재하는 사용자명")`.
public enum UserAPI: Endpoint, Equatable {
    /// `POST /api/v1/users` → `APIResponse<UserResponse>` (201).
    case register(RegisterRequest)
    /// `POST /api/v1/auth/login` → `APIResponse<LoginResponse>`.
    case login(LoginRequest)
    /// `GET /api/v1/users/{id}` → `APIResponse<UserResponse>`.
    case getUser(id: Int)
    /// `PATCH /api/v1/users/{id}` → `APIResponse<UserResponse>`.
    case updateUser(id: Int, UpdateUserRequest)
    /// `DELETE /api/v1/users/{id}` → `APIResponse<EmptyResponse>` (no data).
    case deleteUser(id: Int)
    /// `POST /api/v1/auth/refresh` → `APIResponse<LoginResponse>`: a new token and refresh token
    /// (the presented refresh token stops working).
    case refresh(RefreshRequest)
    /// `POST /api/v1/auth/logout` → `APIResponse<EmptyResponse>`: the refresh token (and the
    /// access token sent with it) stop working.
    case logout(RefreshRequest)

    /// Where `courier serve` listens by default: `http://127.0.0.1:8080`.
    public static let defaultServer: URL = URL(string: "http://127.0.0.1:8080") ?? URL(fileURLWithPath: "/")

    /// ``defaultServer``; a client with `NetworkClient/Configuration/baseURL` sends the calls elsewhere.
    public var baseURL: URL { Self.defaultServer }

    public var path: String {
        switch self {
        case .register: "/api/v1/users"
        case .login: "/api/v1/auth/login"
        case .refresh: "/api/v1/auth/refresh"
        case .logout: "/api/v1/auth/logout"
        case .getUser(let id), .updateUser(let id, _), .deleteUser(let id): "/api/v1/users/\(id)"
        }
    }

    public var method: HTTPMethod {
        switch self {
        case .register, .login, .refresh, .logout: .post
        case .getUser: .get
        case .updateUser: .patch
        case .deleteUser: .delete
        }
    }

    public var task: HTTPTask {
        switch self {
        case .register(let request): .requestJSONEncodable(request)
        case .login(let request): .requestJSONEncodable(request)
        case .updateUser(_, let request): .requestJSONEncodable(request)
        case .refresh(let request), .logout(let request): .requestJSONEncodable(request)
        case .getUser, .deleteUser: .requestPlain
        }
    }

    public var headers: [String: String]? { ["Accept": "application/json"] }

    /// The password, so a logging middleware never shows it even if it logs bodies.
    public var secrets: [String] {
        switch self {
        case .register(let request): [request.password]
        case .login(let request): [request.password]
        case .refresh(let request), .logout(let request): [request.refreshToken]
        default: []
        }
    }

    /// Standard HTTP meanings, with the wrapper's `message` instead of the raw body in `remoteError`.
    public var statusMapping: StatusMapping { Self.statusMapping }

    /// The token goes to the calls on an account, never to register, login or refresh.
    public var traits: CallTraits {
        switch self {
        case .register, .login, .refresh: CallTraits(authorization: .none)
        case .getUser, .updateUser, .deleteUser, .logout: CallTraits(authorization: .bearer)
        }
    }

    static let statusMapping = StatusMapping.standard.readingEnvelopeMessages()
}
