import Courier
import Foundation
import HTTPTypes

/// The seminar's User API (seed 003) as an ``Endpoint`` enum: one case per call.
///
/// ```swift
/// let client = NetworkClient()
/// let server = URL(string: "http://127.0.0.1:8080")!
/// let login: APIResponse<LoginResponse> = try await client.request(
///     UserAPI.login(LoginRequest(username: "johndoe", password: "P@ssw0rd!")).on(server))
/// ```
///
/// Calls 3–5 need `Authorization: Bearer <token>` from the login (``Accounts`` attaches it for
/// you). A non-2xx answer becomes the usual ``NetworkError`` (401 → `unauthorized`, 404 →
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

    /// Where `courier serve` listens by default: `http://127.0.0.1:8080`.
    public static let defaultServer: URL = URL(string: "http://127.0.0.1:8080") ?? URL(fileURLWithPath: "/")

    /// ``defaultServer``; use ``on(_:)`` for another.
    public var baseURL: URL { Self.defaultServer }

    public var path: String {
        switch self {
        case .register: "/api/v1/users"
        case .login: "/api/v1/auth/login"
        case .getUser(let id), .updateUser(let id, _), .deleteUser(let id): "/api/v1/users/\(id)"
        }
    }

    public var method: HTTPMethod {
        switch self {
        case .register, .login: .post
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
        case .getUser, .deleteUser: .requestPlain
        }
    }

    public var headers: [String: String]? { ["Accept": "application/json"] }

    /// The password, so a logging middleware never shows it even if it logs bodies.
    public var secrets: [String] {
        switch self {
        case .register(let request): [request.password]
        case .login(let request): [request.password]
        default: []
        }
    }

    /// Standard HTTP meanings, with the wrapper's `message` instead of the raw body in `remoteError`.
    public var statusMapping: StatusMapping { Self.wrapperMapping }

    /// This call sent to `server` instead of ``defaultServer``.
    public func on(_ server: URL) -> UserAPICall {
        UserAPICall(api: self, baseURL: server)
    }

    static let wrapperMapping = StatusMapping { response, body in
        let error = StatusMapping.standard.error(for: response, body: body)
        if case .remoteError(let status, _) = error, let message = APIResponseHead.read(body)?.message {
            return .remoteError(status, message)
        }
        return error
    }
}

/// A ``UserAPI`` call bound to a server.
public struct UserAPICall: Endpoint, Equatable {
    /// The call.
    public var api: UserAPI
    /// The server, e.g. `http://127.0.0.1:8080`.
    public var baseURL: URL
    /// When set, every status is handed back as a ``Response`` for the caller to read.
    var acceptsAllStatuses = false

    /// `api` sent to `baseURL`.
    public init(api: UserAPI, baseURL: URL) {
        self.api = api
        self.baseURL = baseURL
    }

    public var path: String { api.path }
    public var method: HTTPMethod { api.method }
    public var task: HTTPTask { api.task }
    public var headers: [String: String]? { api.headers }
    public var secrets: [String] { api.secrets }
    public var statusMapping: StatusMapping { acceptsAllStatuses ? .acceptAll : api.statusMapping }
}
