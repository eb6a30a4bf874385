public import Courier
public import Foundation
import Synchronization

/// The User API as a small service: logs in, keeps the token and the refresh token (in memory,
/// and in a ``CredentialsFile`` when given one), attaches the token to later calls through
/// Courier's `BearerTokenMiddleware` — which refreshes it before it expires, or once when the
/// server refuses it, however many calls are refused at once — and turns an error answer's
/// `message` into the ``AccountsError`` the user sees.
///
/// ```swift
/// let accounts = Accounts(server: URL(string: "http://127.0.0.1:8080")!)
/// try await accounts.register(RegisterRequest(username: "johndoe", password: "P@ssw0rd1",
///                                             name: "홍길동", email: "hong@example.com", age: 25))
/// try await accounts.login(username: "johndoe", password: "P@ssw0rd1")
/// let me = try await accounts.user()          // the logged-in account
/// ```
public actor Accounts {
    /// The server every call goes to.
    public nonisolated let server: URL
    private let client: NetworkClient
    private let holder: SessionHolder
    private let credentials: CredentialsFile?

    /// A service for `server`. `configuration` supplies the transport and any middlewares
    /// (the token middleware is added in front of them; its base URL is set to `server`);
    /// `credentials`, when given, is read now and updated on login, refresh, logout and delete.
    public init(
        server: URL = UserAPI.defaultServer,
        configuration: NetworkClient.Configuration = NetworkClient.Configuration(),
        credentials: CredentialsFile? = nil
    ) {
        let holder = SessionHolder()
        holder.session = try? credentials?.session(for: server)
        var configuration = configuration
        configuration.baseURL = server
        let plain = NetworkClient(configuration: configuration)
        let auth = BearerTokenMiddleware(allowedOrigins: [server], logger: configuration.logger) {
            holder.session?.bearerToken
        } refresh: { _ in
            try await Self.refresh(holder, client: plain, credentials: credentials)
        }
        configuration.middlewares.insert(auth, at: 0)
        self.server = server
        self.client = NetworkClient(configuration: configuration)
        self.holder = holder
        self.credentials = credentials
    }

    /// The current login, if any (it may have expired: see ``AccountsSession/isExpired``).
    public var session: AccountsSession? { holder.session }

    // MARK: The five calls

    /// Creates an account (`POST /api/v1/users`). Does not log in.
    @discardableResult
    public func register(_ request: RegisterRequest) async throws(AccountsError) -> UserResponse {
        try await send(.register(request), as: UserResponse.self).requireData()
    }

    /// The seed's `performRegister`.
    @discardableResult
    public func register(username: String, password: String, name: String, email: String, age: Int) async throws(AccountsError) -> UserResponse {
        try await register(RegisterRequest(username: username, password: password, name: name, email: email, age: age))
    }

    /// Logs in and keeps the token for the following calls (and in the credentials file).
    @discardableResult
    public func login(username: String, password: String) async throws(AccountsError) -> LoginResponse {
        try await send(.login(LoginRequest(username: username, password: password)), as: LoginResponse.self).requireData()
    }

    /// Logs out: asks the server to revoke the refresh token (and the access token sent with it,
    /// `POST /api/v1/auth/logout`), then forgets the login here and in the credentials file —
    /// forgotten even when the server cannot be reached (the tokens then stay valid there until
    /// they expire). The seed's API had no logout call; the sandbox has one.
    public func logout() async throws(AccountsError) {
        if let session = holder.session, let refreshToken = session.refreshToken {
            _ = try? await client.response(UserAPI.logout(RefreshRequest(refreshToken: refreshToken)), validatingStatus: false)
        }
        try forgetLogin()
    }

    /// Forgets the login here and in the credentials file, without asking the server.
    private func forgetLogin() throws(AccountsError) {
        holder.session = nil
        try credentials?.save(nil, for: server)
    }

    /// The account `id`, or the logged-in one (`GET /api/v1/users/{id}`).
    public func user(id: Int? = nil) async throws(AccountsError) -> UserResponse {
        try await send(.getUser(id: try resolve(id)), as: UserResponse.self).requireData()
    }

    /// Changes name, e-mail and/or age of account `id`, or of the logged-in one.
    @discardableResult
    public func updateUser(id: Int? = nil, _ request: UpdateUserRequest) async throws(AccountsError) -> UserResponse {
        try await send(.updateUser(id: try resolve(id), request), as: UserResponse.self).requireData()
    }

    /// Deletes account `id`, or the logged-in one; deleting your own account also logs out.
    /// Returns the server's message.
    @discardableResult
    public func deleteUser(id: Int? = nil) async throws(AccountsError) -> String {
        try await send(.deleteUser(id: try resolve(id)), as: EmptyResponse.self).message ?? ""
    }

    // MARK: Any call, with the whole answer

    /// Sends `call` and returns the whole wrapped answer of a 2xx, or throws the error answer
    /// as ``AccountsError/server(status:code:message:error:)``. A successful `.login` decoded as
    /// ``LoginResponse`` becomes the session, as with ``login(username:password:)``, and deleting
    /// the logged-in account logs out; a 401 to a
    /// call that carried the saved token forgets that login (it is expired or revoked).
    public func send<T: Decodable & Sendable>(_ call: UserAPI, as type: T.Type) async throws(AccountsError) -> Reply<T> {
        let response: NetworkResponse
        do {
            response = try await client.response(call, validatingStatus: false)
        } catch {
            // The token middleware could not get a new token: the login is over.
            if error == .unauthorized(401) { forgetSession(after: call) }
            throw .network(error)
        }
        let status = response.statusCode
        if let error = response.statusError {
            if status == 401 { forgetSession(after: call) }
            guard let head = EnvelopeHead.read(response.body), let message = head.message else { throw .network(error) }
            throw .server(status: status, code: head.code, message: message, error: error)
        }
        let wrapped: APIResponse<T>
        do {
            wrapped = try JSONResponseDecoding().decode(APIResponse<T>.self, from: response.body, using: client.configuration.decoder)
        } catch {
            throw .network(error)
        }
        if case .login(let request) = call, let login = wrapped.data as? LoginResponse {
            try keep(login, username: request.username)
        }
        if case .deleteUser(let id) = call, holder.session?.userId == id {
            try forgetLogin()  // the account and its tokens are gone on the server already
        }
        return Reply(statusCode: status, code: wrapped.code, message: wrapped.message, data: wrapped.data)
    }

    /// A 401 to a call that carried the saved token: that login is expired or revoked.
    private func forgetSession(after call: UserAPI) {
        guard call.traits.authorization == .bearer, holder.session != nil else { return }
        holder.session = nil
        try? credentials?.save(nil, for: server)
    }

    /// Trades the session's refresh token for a new token (and refresh token), keeps them, and
    /// returns the token; nil when there is no refresh token. Runs outside the actor, called by
    /// the token middleware (once for many refused calls).
    private static func refresh(_ holder: SessionHolder, client: NetworkClient, credentials: CredentialsFile?) async throws -> BearerTokenMiddleware
        .Token?
    {
        guard let credentials else { return try await exchange(holder, client: client, credentials: nil) }
        return try await credentials.withLock {
            // Another process may have refreshed while this one waited: its new tokens are the
            // ones to use — presenting the old refresh token again would look like theft.
            if let current = holder.session, let saved = try credentials.session(for: current.server),
                saved.userId == current.userId, saved.refreshToken != current.refreshToken, saved.hasToken
            {
                holder.session = saved
                return saved.bearerToken
            }
            return try await exchange(holder, client: client, credentials: credentials)
        }
    }

    /// The refresh call itself; the new tokens are kept, and saved when there is a file (a
    /// failed save is an error: the server has already rotated the refresh token).
    private static func exchange(_ holder: SessionHolder, client: NetworkClient, credentials: CredentialsFile?) async throws -> BearerTokenMiddleware
        .Token?
    {
        guard var session = holder.session, let refreshToken = session.refreshToken else { return nil }
        let reply = try await client.request(UserAPI.refresh(RefreshRequest(refreshToken: refreshToken)), as: APIResponse<LoginResponse>.self)
        guard let login = reply.data, let token = login.token else { return nil }
        session.token = token
        session.expiresAt = login.expiresAt
        session.refreshToken = login.refreshToken
        holder.session = session
        try credentials?.save(session, for: session.server)
        return session.bearerToken
    }

    /// Makes `login` the current session (and saves it when there is a credentials file).
    private func keep(_ login: LoginResponse, username: String) throws(AccountsError) {
        let session = AccountsSession(
            server: server, userId: login.userId, username: username, token: login.token,
            expiresAt: login.expiresAt, refreshToken: login.refreshToken)
        holder.session = session
        try credentials?.save(session, for: server)
    }

    /// A wrapped 2xx answer.
    public struct Reply<T: Sendable>: Sendable {
        /// The HTTP status, e.g. 201.
        public var statusCode: Int
        /// The wrapper's `code`.
        public var code: String?
        /// The wrapper's `message`.
        public var message: String?
        /// The wrapper's `data`.
        public var data: T?

        func requireData() throws(AccountsError) -> T {
            guard let data else { throw .network(.invalidResponse) }
            return data
        }
    }

    private func resolve(_ id: Int?) throws(AccountsError) -> Int {
        if let id { return id }
        guard let session = holder.session else { throw .notLoggedIn }
        return session.userId
    }
}

/// The session, shared with the token middleware (which runs outside the actor).
private final class SessionHolder: Sendable {
    private let state = Mutex<AccountsSession?>(nil)

    var session: AccountsSession? {
        get { state.withLock { $0 } }
        set { state.withLock { $0 = newValue } }
    }
}
