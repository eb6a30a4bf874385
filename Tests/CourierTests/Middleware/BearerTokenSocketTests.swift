import Courier
import CourierSandbox
import Foundation
import IntegrationTestSupport
import Synchronization
import Testing

/// ``BearerTokenMiddleware`` against the sandbox: `/echo` shows what was sent, the User API
/// refuses bad tokens and rotates refresh tokens at `POST /api/v1/auth/refresh`.
@Suite("Bearer token and single-flight refresh over sockets")
struct BearerTokenSocketTests {
    /// The token the middleware reads, and how many refreshes ran.
    final class Store: Sendable {
        private let state: Mutex<(token: BearerTokenMiddleware.Token?, refreshToken: String?, refreshes: Int)>

        init(token: BearerTokenMiddleware.Token?, refreshToken: String? = nil) {
            state = Mutex((token, refreshToken, 0))
        }

        var token: BearerTokenMiddleware.Token? { state.withLock { $0.token } }
        var refreshToken: String? { state.withLock { $0.refreshToken } }
        var refreshes: Int { state.withLock { $0.refreshes } }

        func counted() { state.withLock { $0.refreshes += 1 } }
        func keep(_ token: BearerTokenMiddleware.Token, refreshToken: String?) { state.withLock { $0 = (token, refreshToken, $0.refreshes) } }
    }

    struct Login: Decodable, Sendable {
        var userId: Int
        var token: String
        var refreshToken: String
    }

    func json(_ sandbox: RunningSandbox, _ method: HTTPMethod, _ path: String, _ body: String) -> TestEndpoint {
        TestEndpoint(
            baseURL: sandbox.baseURL, path: path, method: method, task: .requestData(Data(body.utf8), contentType: "application/json"),
            decoding: .envelope, traits: CallTraits(authorization: .none))
    }

    /// Registers and logs in a new user.
    func login(_ sandbox: RunningSandbox) async throws -> Login {
        let name = "bearer_\(UUID().uuidString.prefix(8).lowercased())"
        let client = NetworkClient()
        _ = try await client.response(
            json(
                sandbox, .post, "/api/v1/users",
                #"{"username":"\#(name)","password":"Passw0rd!","name":"홍길동","email":"h@example.com","age":30}"#))
        return try await client.request(json(sandbox, .post, "/api/v1/auth/login", #"{"username":"\#(name)","password":"Passw0rd!"}"#))
    }

    /// A middleware over `store` whose refresh calls the sandbox's refresh route (counted).
    func middleware(_ sandbox: RunningSandbox, _ store: Store, origin: URL? = nil) -> BearerTokenMiddleware {
        BearerTokenMiddleware(allowedOrigins: origin.map { [$0] } ?? []) {
            store.token
        } refresh: { _ in
            store.counted()
            guard let refreshToken = store.refreshToken else { return nil }
            let login: Login = try await NetworkClient().request(
                json(sandbox, .post, "/api/v1/auth/refresh", #"{"refreshToken":"\#(refreshToken)"}"#))
            let token = BearerTokenMiddleware.Token(login.token, expiresAt: Date().addingTimeInterval(3600))
            store.keep(token, refreshToken: login.refreshToken)
            return token
        }
    }

    @Test("50 concurrent calls refused with a stale token cause exactly one refresh, then all succeed")
    func fiftyRefusals() async throws {
        try await withSandbox { sandbox in
            let login = try await login(sandbox)
            let stale = BearerTokenMiddleware.Token(String(repeating: "A", count: 43))
            let store = Store(token: stale, refreshToken: login.refreshToken)
            let client = NetworkClient(configuration: .init(middlewares: [middleware(sandbox, store)]))
            let endpoint = TestEndpoint(baseURL: sandbox.baseURL, path: "/api/v1/users/\(login.userId)", traits: CallTraits(authorization: .bearer))
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<50 { group.addTask { try await client.response(endpoint).statusCode } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: 200, count: 50))
            #expect(store.refreshes == 1)
            #expect(store.token != stale)
        }
    }

    @Test("a failed refresh ends every waiting call in unauthorized, after one refresh")
    func failedRefresh() async throws {
        try await withSandbox { sandbox in
            let login = try await login(sandbox)
            let store = Store(token: BearerTokenMiddleware.Token(String(repeating: "B", count: 43)), refreshToken: "not-a-refresh-token")
            let client = NetworkClient(configuration: .init(middlewares: [middleware(sandbox, store)]))
            let endpoint = TestEndpoint(baseURL: sandbox.baseURL, path: "/api/v1/users/\(login.userId)", traits: CallTraits(authorization: .bearer))
            let errors = await withTaskGroup(of: NetworkError?.self) { group in
                for _ in 0..<20 {
                    group.addTask {
                        do {
                            _ = try await client.response(endpoint)
                            return nil
                        } catch { return NetworkError(error) }
                    }
                }
                return await group.reduce(into: [NetworkError?]()) { $0.append($1) }
            }
            #expect(errors == Array(repeating: .unauthorized(401), count: 20))
            #expect(store.refreshes == 1)
        }
    }

    @Test("a replay refused again is answered as is: no refresh loop")
    func noLoop() async throws {
        try await withSandbox { sandbox in
            let login = try await login(sandbox)
            let store = Store(token: BearerTokenMiddleware.Token(String(repeating: "C", count: 43)))
            let auth = BearerTokenMiddleware {
                store.token
            } refresh: { _ in
                store.counted()
                return BearerTokenMiddleware.Token(String(repeating: "D", count: 43))  // also refused
            }
            let client = NetworkClient(configuration: .init(middlewares: [auth]))
            await #expect(throws: NetworkError.unauthorized(401)) {
                _ = try await client.response(TestEndpoint(baseURL: sandbox.baseURL, path: "/api/v1/users/\(login.userId)"))
            }
            #expect(store.refreshes == 1)
        }
    }

    @Test("a token about to expire is refreshed before the call; the new one is sent")
    func refreshAhead() async throws {
        try await withSandbox { sandbox in
            let store = Store(token: BearerTokenMiddleware.Token("old-token", expiresAt: Date().addingTimeInterval(5)))
            let auth = BearerTokenMiddleware(refreshMargin: .seconds(30)) {
                store.token
            } refresh: { _ in
                store.counted()
                let fresh = BearerTokenMiddleware.Token("new-token", expiresAt: Date().addingTimeInterval(3600))
                store.keep(fresh, refreshToken: nil)
                return fresh
            }
            let client = NetworkClient(configuration: .init(middlewares: [auth]))
            let echo: Echo = try await client.request(TestEndpoint(baseURL: sandbox.baseURL, path: "/echo"))
            #expect(echo.headers["authorization"] == "Bearer new-token")
            let again: Echo = try await client.request(TestEndpoint(baseURL: sandbox.baseURL, path: "/echo"))
            #expect(again.headers["authorization"] == "Bearer new-token")
            #expect(store.refreshes == 1)
        }
    }

    @Test("the token goes only to allowed origins (the call's own by default), never to .none calls or along a redirect away")
    func whereTokensGo() async throws {
        try await withSandbox { sandbox in
            let store = Store(token: BearerTokenMiddleware.Token("t0ken"))
            let other = URL(string: "http://127.0.0.1:1")!
            let client = NetworkClient(configuration: .init(middlewares: [middleware(sandbox, store, origin: other)]))
            func sent(_ traits: CallTraits) async throws -> String? {
                let echo: Echo = try await client.request(TestEndpoint(baseURL: sandbox.baseURL, path: "/echo", traits: traits))
                return echo.headers["authorization"]
            }
            #expect(try await sent(CallTraits()) == nil, "automatic: the sandbox is not an allowed origin")
            #expect(try await sent(CallTraits(authorization: .bearer)) == nil, "bearer: still only to an allowed origin")
            // Without allowedOrigins, the token goes to the origin each call was sent to — and not
            // along a redirect to another origin (127.0.0.1 → localhost).
            let own = NetworkClient(configuration: .init(middlewares: [middleware(sandbox, store)]))
            let home: Echo = try await own.request(TestEndpoint(baseURL: sandbox.baseURL, path: "/echo"))
            #expect(home.headers["authorization"] == "Bearer t0ken")
            let away = "http://localhost:\(sandbox.baseURL.port ?? 0)/echo"
            let redirected: Echo = try await own.request(
                TestEndpoint(
                    baseURL: sandbox.baseURL, path: "/hostile/redirect", task: .requestParameters(["to": away], encoding: .url),
                    traits: CallTraits(authorization: .bearer)))
            #expect(redirected.headers["authorization"] == nil, "a redirect to another origin never carries the token")
            let bound = NetworkClient(configuration: .init(middlewares: [middleware(sandbox, store, origin: sandbox.baseURL)]))
            let echo: Echo = try await bound.request(TestEndpoint(baseURL: sandbox.baseURL, path: "/echo", traits: CallTraits(authorization: .none)))
            #expect(echo.headers["authorization"] == nil)
        }
    }
}
