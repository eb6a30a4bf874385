import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// The five User API calls and the token refresh. Each either returns a wrapped success or
/// throws the ``AccountsFailure`` that becomes the wrapped error answer.
///
/// Order of checks on `/users/{id}`: token (401) → id (400) → the user exists (404) → it is the
/// caller's own account (403) → body (400). Logs never carry a password, a token (access or
/// refresh) or a username from a failed login (people type passwords into the username field).
struct UserAPIHandlers: Sendable {
    let store: AccountStore
    let hasher: PasswordHasher
    let limiter: LoginRateLimiter
    let settings: AccountsSettings
    let logger: Logger

    init(store: AccountStore, settings: AccountsSettings, logger: Logger) {
        self.store = store
        self.hasher = PasswordHasher(cost: settings.bcryptCost)
        self.limiter = LoginRateLimiter(limits: settings.loginLimits)
        self.settings = settings
        self.logger = logger
    }

    /// The answer for `body`'s result: its response, or its failure wrapped.
    func respond(_ body: () async throws(AccountsFailure) -> Response) async -> Response {
        do {
            return try await body()
        } catch {
            return error.response
        }
    }

    // MARK: Calls

    func register(_ request: Request, context: some RequestContext) async throws(AccountsFailure) -> Response {
        let input = try RegisterInput(try await body(of: request))
        if try await database({ try await store.usernameExists(input.username) }) { throw .usernameTaken }
        let password = input.password
        let hash = try await database { try await hasher.hash(password) }
        let created = try await database {
            try await store.insertUser(username: input.username, passwordHash: hash, name: input.name, email: input.email, age: input.age)
        }
        guard let user = created else { throw .usernameTaken }
        logger.debug("user registered", metadata: ["userId": "\(user.id)"])
        return AccountsEnvelope.response(user, status: .created, code: "CREATED", message: "회원가입이 완료되었습니다")
    }

    func login(_ request: Request, context: some RequestContext) async throws(AccountsFailure) -> Response {
        let input = try LoginInput(try await body(of: request))
        let address = Self.clientAddress(context)
        if let wait = await limiter.admit(username: input.username, address: address) {
            logger.notice("login rate-limited", metadata: ["address": "\(address)", "retryAfter": "\(wait)"])
            throw .tooManyAttempts(retryAfter: wait)
        }
        let account = try await database { try await store.credentials(username: input.username) }
        // A password that could never have been registered (bcrypt reads 72 bytes and stops at NUL)
        // is checked against the dummy hash: same time, same answer.
        let usable = input.password.utf8.count <= 72 && !input.password.utf8.contains(0)
        let password = input.password
        let matches = try await database { try await hasher.verify(password, hash: usable ? account?.passwordHash : nil) }
        guard matches, let account else {
            logger.debug("login failed", metadata: ["address": "\(address)"])
            throw .badCredentials
        }
        await limiter.recordSuccess(username: input.username)
        let tokens = LoginTokenPair(settings: settings)
        try await database { try await store.insertTokens(tokens.hashes, userID: account.id) }
        logger.debug("login", metadata: ["userId": "\(account.id)"])
        return AccountsEnvelope.response(LoginData(userId: account.id, message: "로그인 성공", tokens: tokens), message: "로그인 성공")
    }

    /// Trades a refresh token for a new access token and a new refresh token (rotation); a
    /// rotated token presented again revokes all the user's refresh tokens.
    func refresh(_ request: Request, context: some RequestContext) async throws(AccountsFailure) -> Response {
        let input = try RefreshInput(try await body(of: request))
        guard LoginTokens.isWellFormed(input.refreshToken) else { throw .badRefreshToken }
        let tokens = LoginTokenPair(settings: settings)
        let hash = LoginTokens.storedHash(of: input.refreshToken)
        switch try await database({ try await store.rotateRefreshToken(hash: hash, replacement: tokens.hashes) }) {
        case .rotated(let userID):
            logger.debug("token refreshed", metadata: ["userId": "\(userID)"])
            return AccountsEnvelope.response(RefreshData(userId: userID, tokens: tokens), message: "토큰이 갱신되었습니다")
        case .reused(let userID):
            logger.notice("refresh token reused; the user's refresh tokens are revoked", metadata: ["userId": "\(userID)"])
            throw .reusedRefreshToken
        case .expired: throw .expiredRefreshToken
        case .unknown: throw .badRefreshToken
        }
    }

    /// Ends a login: the refresh token in the body is revoked (refreshing with it then answers
    /// 401), and so is the access token in `Authorization` when one is sent. Answers 200 also for
    /// a token that is unknown, expired or spent already, as OAuth's revocation does (RFC 7009
    /// §2.2): either way it no longer works, and the answer tells nobody which tokens exist.
    func logout(_ request: Request, context: some RequestContext) async throws(AccountsFailure) -> Response {
        let input = try RefreshInput(try await body(of: request))
        let refreshHash = LoginTokens.isWellFormed(input.refreshToken) ? LoginTokens.storedHash(of: input.refreshToken) : nil
        let accessHash = request.headers[.authorization].flatMap(LoginTokens.bearer).map(LoginTokens.storedHash(of:))
        let userID = try await database { try await store.revoke(refreshHash: refreshHash, accessHash: accessHash) }
        if let userID { logger.debug("logout", metadata: ["userId": "\(userID)"]) }
        return AccountsEnvelope<NoData>.response(nil, message: "로그아웃되었습니다")
    }

    func show(_ request: Request, context: some RequestContext) async throws(AccountsFailure) -> Response {
        let user = try await ownedUser(request, context: context)
        return AccountsEnvelope.response(user, message: "조회 성공")
    }

    func update(_ request: Request, context: some RequestContext) async throws(AccountsFailure) -> Response {
        let user = try await ownedUser(request, context: context)
        let input = try UpdateInput(try await body(of: request))
        guard
            let updated = try await database({
                try await store.updateUser(id: user.id, name: input.name, email: input.email, age: input.age)
            })
        else { throw .notFound }
        logger.debug("user updated", metadata: ["userId": "\(user.id)"])
        return AccountsEnvelope.response(updated, message: "수정 완료")
    }

    func delete(_ request: Request, context: some RequestContext) async throws(AccountsFailure) -> Response {
        let user = try await ownedUser(request, context: context)
        guard try await database({ try await store.deleteUser(id: user.id) }) else { throw .notFound }
        logger.debug("user deleted", metadata: ["userId": "\(user.id)"])
        return AccountsEnvelope<NoData>.response(nil, message: "회원탈퇴가 완료되었습니다")
    }

    // MARK: Checks

    /// The account at `/users/{id}`, after checking the token, the id, existence and ownership.
    private func ownedUser(_ request: Request, context: some RequestContext) async throws(AccountsFailure) -> UserRecord {
        let caller = try await authenticate(request)
        guard let raw = context.parameters.get("id"), let id = Int(raw), id > 0 else {
            throw .badRequest("id", "양의 정수여야 합니다")
        }
        guard let user = try await database({ try await store.user(id: id) }) else { throw .notFound }
        guard user.id == caller else {
            logger.debug("forbidden", metadata: ["userId": "\(caller)", "target": "\(id)"])
            throw .forbidden
        }
        return user
    }

    /// The user id behind the request's bearer token.
    private func authenticate(_ request: Request) async throws(AccountsFailure) -> Int {
        guard let header = request.headers[.authorization] else { throw .missingToken }
        guard let token = LoginTokens.bearer(header) else { throw .badToken }
        switch try await database({ try await store.lookupToken(hash: LoginTokens.storedHash(of: token)) }) {
        case .valid(let userID): return userID
        case .expired: throw .expiredToken
        case .unknown: throw .badToken
        }
    }

    /// The request body, at most ``AccountsSettings/maxBodyBytes``, when it is declared JSON
    /// (a missing or other `Content-Type` is 415: see ``JSONMediaType``).
    private func body(of request: Request) async throws(AccountsFailure) -> Data {
        let limit = settings.maxBodyBytes
        let tooLarge = AccountsFailure.badRequest("body", "요청 본문이 너무 큽니다 (최대 \(limit)바이트)")
        guard JSONMediaType.matches(request.headers[.contentType]) else { throw .unsupportedMediaType(request.method) }
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit { throw tooLarge }
        do {
            var buffer = try await request.body.collect(upTo: limit)
            return Data(buffer.readBytes(length: buffer.readableBytes) ?? [])
        } catch is NIOTooManyBytesError {
            throw tooLarge
        } catch {
            throw .badRequest("body", "본문을 읽을 수 없습니다")
        }
    }

    /// Runs a storage or hashing step; an unexpected failure is logged (its type only) and answered with 500.
    private func database<T>(_ step: () async throws -> T) async throws(AccountsFailure) -> T {
        do {
            return try await step()
        } catch {
            logger.error("accounts storage failed", metadata: ["error": "\(String(reflecting: type(of: error)))"])
            throw .internalError
        }
    }

    // MARK: Helpers

    /// The peer's IP address when the request context knows it; otherwise one shared bucket.
    static func clientAddress(_ context: some RequestContext) -> String {
        if let remote = (context as? any RemoteAddressRequestContext)?.remoteAddress {
            return remote.ipAddress ?? "\(remote)"
        }
        return "unknown"
    }

    static func seconds(_ duration: Duration) -> TimeInterval {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func iso8601(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}

/// `data` of a successful login: the seed's `userId` and `message`, plus the bearer token and
/// the refresh token.
struct LoginData: Encodable, Sendable {
    var userId: Int
    var message: String
    var token: String
    var expiresAt: String
    var refreshToken: String
    var refreshExpiresAt: String

    init(userId: Int, message: String, tokens: LoginTokenPair) {
        self.userId = userId
        self.message = message
        token = tokens.token
        expiresAt = UserAPIHandlers.iso8601(tokens.expiresAt)
        refreshToken = tokens.refreshToken
        refreshExpiresAt = UserAPIHandlers.iso8601(tokens.refreshExpiresAt)
    }
}

/// `data` of a successful refresh: the user and the new pair.
struct RefreshData: Encodable, Sendable {
    var userId: Int
    var token: String
    var expiresAt: String
    var refreshToken: String
    var refreshExpiresAt: String

    init(userId: Int, tokens: LoginTokenPair) {
        self.userId = userId
        token = tokens.token
        expiresAt = UserAPIHandlers.iso8601(tokens.expiresAt)
        refreshToken = tokens.refreshToken
        refreshExpiresAt = UserAPIHandlers.iso8601(tokens.refreshExpiresAt)
    }
}
