import AsyncHTTPClient
import CourierTesting
import Foundation
import Testing

@testable import CourierSandbox

/// `POST /api/v1/auth/refresh`: rotation, reuse detection, and what is stored.
@Suite("Sandbox: refresh tokens for the User API")
struct RefreshTokenTests {
    @Test("login hands out a refresh token (43 base64url characters) valid for 30 days beside the access token")
    func loginGivesRefreshToken() async throws {
        try await withAccountsSandbox { sandbox, _ in
            let issued = try await sandbox.registerAndLogin()
            #expect(issued.refreshToken.count == 43 && issued.refreshToken != issued.token)
            #expect(LoginTokens.isWellFormed(issued.refreshToken))
            let refreshExpiry = try Date(issued.refreshExpiresAt, strategy: .iso8601)
            let days = refreshExpiry.timeIntervalSinceNow / 86_400
            #expect(days > 29.9 && days <= 30, "\(issued.refreshExpiresAt)")
            let accessExpiry = try Date(issued.expiresAt, strategy: .iso8601)
            #expect(accessExpiry.timeIntervalSinceNow > 3500 && accessExpiry.timeIntervalSinceNow <= 3600)
        }
    }

    @Test("refresh answers a new access token and a new refresh token; the old refresh token is then refused with 401")
    func rotation() async throws {
        try await withAccountsSandbox { sandbox, _ in
            let first = try await sandbox.registerAndLogin()
            let answer = try await sandbox.refresh(first.refreshToken)
            #expect(answer.status == 200 && answer.header("Cache-Control") == "no-store")
            #expect(answer.object["success"] as? Bool == true && answer.object["code"] as? String == "OK")
            #expect(answer.object["message"] as? String == "토큰이 갱신되었습니다")
            let second = try IssuedTokens(answer)
            #expect(second.userId == first.userId)
            #expect(second.token != first.token && second.refreshToken != first.refreshToken)

            let shown = try await sandbox.showUser(second.userId, token: second.token)
            #expect(shown.status == 200 && (shown.object["data"] as? [String: Any])?["id"] as? Int == first.userId)
            #expect(try await sandbox.showUser(first.userId, token: first.token).status == 200, "the old access token lives until it expires")

            let replay = try await sandbox.refresh(first.refreshToken)
            #expect(replay.status == 401 && replay.object["code"] as? String == "UNAUTHORIZED" && replay.object["success"] as? Bool == false)
            #expect(replay.object.keys.sorted() == ["code", "data", "message", "success"] && replay.object["data"] is NSNull)
        }
    }

    @Test("reusing a rotated refresh token revokes the user's newer refresh tokens too, but not their access tokens")
    func reuseRevokesFamily() async throws {
        try await withAccountsSandbox { sandbox, _ in
            let first = try await sandbox.registerAndLogin()
            let second = try IssuedTokens(try await sandbox.refresh(first.refreshToken))
            let reuse = try await sandbox.refresh(first.refreshToken)
            #expect(reuse.status == 401 && reuse.object["message"] as? String == "이미 사용된 리프레시 토큰입니다. 다시 로그인하세요")

            let revoked = try await sandbox.refresh(second.refreshToken)
            #expect(revoked.status == 401 && revoked.object["message"] as? String == "유효하지 않은 리프레시 토큰입니다")
            #expect(try await sandbox.showUser(second.userId, token: second.token).status == 200)
        }
    }

    @Test("an expired access token answers 401; a refresh then gives one that works")
    func expiredAccessToken() async throws {
        try await withAccountsSandbox(configure: { $0.tokenLifetime = .seconds(3) }) { sandbox, _ in
            let first = try await sandbox.registerAndLogin()
            try await Task.sleep(for: .milliseconds(3200))
            let expired = try await sandbox.showUser(first.userId, token: first.token)
            #expect(expired.status == 401 && expired.object["message"] as? String == "토큰이 만료되었습니다. 다시 로그인하세요")
            let refreshed = try IssuedTokens(try await sandbox.refresh(first.refreshToken))
            #expect(try await sandbox.showUser(first.userId, token: refreshed.token).status == 200)
        }
    }

    @Test("an unknown, malformed or expired refresh token answers 401; a missing or wrong body 400; GET 405")
    func refusals() async throws {
        try await withAccountsSandbox(configure: { $0.refreshTokenLifetime = .milliseconds(500) }) { sandbox, _ in
            let issued = try await sandbox.registerAndLogin()
            for token in [LoginTokens.make(), "short", "", String(repeating: "!", count: 43)] {
                let answer = try await sandbox.refresh(token)
                #expect(answer.status == 401 && answer.object["message"] as? String == "유효하지 않은 리프레시 토큰입니다", "\(token)")
            }
            try await Task.sleep(for: .milliseconds(700))
            let expired = try await sandbox.refresh(issued.refreshToken)
            #expect(expired.status == 401 && expired.object["message"] as? String == "리프레시 토큰이 만료되었습니다. 다시 로그인하세요")

            let json = [("Content-Type", "application/json")]
            for body in ["", "{}", #"{"refreshToken":42}"#, #"{"refreshToken":"x","extra":1}"#, "[1]"] {
                let answer = try await sandbox.send(.POST, "/api/v1/auth/refresh", headers: json, body: Array(body.utf8))
                #expect(answer.status == 400 && answer.object["code"] as? String == "BAD_REQUEST", "\(body)")
            }
            let get = try await sandbox.send(.GET, "/api/v1/auth/refresh")
            #expect(get.status == 405 && get.header("Allow") == "POST" && get.object["code"] as? String == "METHOD_NOT_ALLOWED")
        }
    }

    @Test("deleting a user removes their refresh tokens")
    func deleteCascades() async throws {
        try await withAccountsSandbox { sandbox, _ in
            let issued = try await sandbox.registerAndLogin()
            let deleted = try await sandbox.send(.DELETE, "/api/v1/users/\(issued.userId)", headers: [("Authorization", "Bearer \(issued.token)")])
            #expect(deleted.status == 200)
            let answer = try await sandbox.refresh(issued.refreshToken)
            #expect(answer.status == 401 && answer.object["message"] as? String == "유효하지 않은 리프레시 토큰입니다")
        }
    }

    @Test("a database from before refresh tokens (schema 1) is brought up to date on start: its users log in and refresh")
    func upgradesSchemaOne() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let name = "old_\(UUID().uuidString.prefix(8).lowercased())"
        try await withAccountsSandbox(dataDirectory: directory) { sandbox, _ in try await sandbox.register(name) }
        let file = directory.appendingPathComponent(AccountsSettings().databaseFileName)
        let old = try await AccountStore.open(file: file, logger: quietLogger)
        _ = try await old.query("DROP TABLE refresh_tokens")
        _ = try await old.query("PRAGMA user_version = 1")
        #expect(try await old.query("PRAGMA user_version").first?.column("user_version")?.integer == 1)

        try await withAccountsSandbox(dataDirectory: directory) { sandbox, _ in
            let issued = try await sandbox.login(name)
            let refreshed = try IssuedTokens(try await sandbox.refresh(issued.refreshToken))
            #expect(try await sandbox.showUser(refreshed.userId, token: refreshed.token).status == 200)
        }
    }

    @Test("no access or refresh token, nor its hash, reaches a log line, even at trace level with request logging")
    func logsHoldNoTokens() async throws {
        let log = LogCapture()
        let tokens = try await withAccountsSandbox(logger: log.logger("sandbox")) { sandbox, _ in
            let first = try await sandbox.registerAndLogin()
            let second = try IssuedTokens(try await sandbox.refresh(first.refreshToken))
            #expect(try await sandbox.refresh(first.refreshToken).status == 401)  // reuse: logged as a notice
            #expect(try await sandbox.refresh(LoginTokens.make()).status == 401)
            #expect(try await sandbox.showUser(second.userId, token: second.token).status == 200)
            return [first, second]
        }
        let lines = log.lines
        #expect(lines.contains { $0.contains("/api/v1/auth/refresh") }, "requests were logged")
        #expect(lines.contains { $0.contains("refresh token reused") && $0.contains("userId=\(tokens[0].userId)") })
        for issued in tokens {
            for secret in [
                issued.token, issued.refreshToken, LoginTokens.storedHash(of: issued.token), LoginTokens.storedHash(of: issued.refreshToken),
            ] {
                #expect(!lines.contains { $0.contains(secret) })
            }
        }
    }

    @Test("the database files hold SHA-256 hashes of refresh tokens, never the tokens")
    func storedAsHashes() async throws {
        let (tokens, files) = try await withAccountsSandbox { sandbox, directory in
            let first = try await sandbox.registerAndLogin()
            let second = try IssuedTokens(try await sandbox.refresh(first.refreshToken))
            await sandbox.stop()  // checkpoint and close, then read every file SQLite wrote
            let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            // SQLite may still be removing its -wal/-shm files as it closes: a file that vanished holds nothing.
            return ([first, second], files.map { (try? Data(contentsOf: $0)) ?? Data() })
        }
        let bytes = files.reduce(into: Data()) { $0.append($1) }
        #expect(!bytes.isEmpty)
        for issued in tokens {
            for token in [issued.token, issued.refreshToken] {
                #expect(bytes.range(of: Data(token.utf8)) == nil, "a token is stored in plain text")
            }
        }
        #expect(bytes.range(of: Data(LoginTokens.storedHash(of: tokens[1].refreshToken).utf8)) != nil, "sanity: the hash is in these files")
    }
}
