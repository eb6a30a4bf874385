import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// The seminar's User API on the sandbox, backed by SQLite in the data directory:
///
/// | Method | Path | Body | Answer `data` |
/// |---|---|---|---|
/// | POST | /api/v1/users | RegisterRequest | UserResponse (201) |
/// | POST | /api/v1/auth/login | LoginRequest | LoginResponse + `token`, `expiresAt`, `refreshToken`, `refreshExpiresAt` |
/// | POST | /api/v1/auth/refresh | `{"refreshToken"}` | `userId`, `token`, `expiresAt`, `refreshToken`, `refreshExpiresAt` (a new pair; the presented refresh token stops working) |
/// | POST | /api/v1/auth/logout | `{"refreshToken"}`, optionally `Authorization: Bearer` | null: the refresh token (and the access token, when sent) stops working |
/// | GET | /api/v1/users/{id} | — | UserResponse (owner's token) |
/// | PATCH | /api/v1/users/{id} | UpdateUserRequest | UserResponse (owner's token) |
/// | DELETE | /api/v1/users/{id} | — | null (owner's token) |
///
/// Every answer, errors included, is `{"success","code","message","data"}`. A refresh token is
/// spent by its first use; presenting it again answers 401 and revokes every refresh token of
/// its user (access tokens stay valid until they expire). An unknown, expired or malformed
/// refresh token answers 401. Every body must be sent as `application/json` (or a `+json` type):
/// another type, or none, answers 415.
struct AccountsRoutes: SandboxRouteGroup {
    let dataDirectory: URL?
    let settings: AccountsSettings
    let logger: Logger

    /// Routes over the database in `dataDirectory` (nil: in memory, gone when the server stops:
    /// test servers that never touch accounts leave no files behind), with
    /// ``AccountsSettings/override`` or the default settings.
    init(dataDirectory: URL?, logger: Logger, settings: AccountsSettings? = nil) {
        self.dataDirectory = dataDirectory
        self.settings = settings ?? AccountsSettings.override ?? AccountsSettings()
        self.logger = logger
    }

    func register(on router: Router<SandboxRequestContext>) async throws {
        let store = try await AccountStore.open(file: dataDirectory?.appendingPathComponent(settings.databaseFileName), logger: logger)
        let handlers = UserAPIHandlers(store: store, settings: settings, logger: logger)
        // Makes the dummy hash now, so the first login for an unknown name is not slower than
        // one for a known name (that would tell which names exist). Not a whole verify per start:
        // that put a 50–100 ms hash on the process's 2-thread bcrypt pool for every sandbox a
        // test run starts (hundreds), and the Accounts tests' own hashes queued behind them.
        let hasher = handlers.hasher
        Task { try? await hasher.prepare() }
        logger.debug("accounts database ready", metadata: ["directory": "\(dataDirectory?.path ?? "in memory")"])

        router.post("/api/v1/users") { request, context in
            await handlers.respond { () async throws(AccountsFailure) in try await handlers.register(request, context: context) }
        }
        router.post("/api/v1/auth/login") { request, context in
            await handlers.respond { () async throws(AccountsFailure) in try await handlers.login(request, context: context) }
        }
        router.post("/api/v1/auth/refresh") { request, context in
            await handlers.respond { () async throws(AccountsFailure) in try await handlers.refresh(request, context: context) }
        }
        router.post("/api/v1/auth/logout") { request, context in
            await handlers.respond { () async throws(AccountsFailure) in try await handlers.logout(request, context: context) }
        }
        router.get("/api/v1/users/:id") { request, context in
            await handlers.respond { () async throws(AccountsFailure) in try await handlers.show(request, context: context) }
        }
        router.patch("/api/v1/users/:id") { request, context in
            await handlers.respond { () async throws(AccountsFailure) in try await handlers.update(request, context: context) }
        }
        router.delete("/api/v1/users/:id") { request, context in
            await handlers.respond { () async throws(AccountsFailure) in try await handlers.delete(request, context: context) }
        }
        registerFallbacks(on: router)
    }

    /// Other methods on these paths (405 with `Allow`) and unknown paths below them (404) answer
    /// with the wrapper too.
    private func registerFallbacks(on router: Router<SandboxRequestContext>) {
        let methods: [HTTPRequest.Method] = [.get, .post, .put, .patch, .delete]
        let allowed: [(RouterPath, [HTTPRequest.Method])] = [
            ("/api/v1/users", [.post]), ("/api/v1/auth/login", [.post]), ("/api/v1/auth/refresh", [.post]),
            ("/api/v1/auth/logout", [.post]),
            ("/api/v1/users/:id", [.get, .patch, .delete]),
        ]
        for (path, allow) in allowed {
            for method in methods where !allow.contains(method) {
                router.on(path, method: method) { _, _ in AccountsFailure.methodNotAllowed(allow: allow).response }
            }
        }
        for path: RouterPath in ["/api/v1/users/:id/**", "/api/v1/auth/**"] {
            for method in methods {
                router.on(path, method: method) { _, _ in AccountsFailure.unknownPath.response }
            }
        }
    }
}
