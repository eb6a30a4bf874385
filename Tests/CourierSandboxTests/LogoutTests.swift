import Foundation
import Testing

@testable import CourierSandbox

/// `POST /api/v1/auth/logout`: the login's refresh token (and access token, when sent) stop working.
@Suite("Sandbox: logout revokes the refresh token")
struct LogoutTests {
    @Test("after logout, refreshing with the old refresh token answers 401; the user's other logins go on")
    func revokesRefreshToken() async throws {
        try await withAccountsSandbox { sandbox, _ in
            let name = "logout_\(UUID().uuidString.prefix(8).lowercased())"
            try await sandbox.register(name)
            let session = try await sandbox.login(name)
            let otherDevice = try await sandbox.login(name)

            let answer = try await sandbox.logout(session.refreshToken)
            #expect(answer.status == 200 && answer.object["success"] as? Bool == true && answer.object["message"] as? String == "로그아웃되었습니다")
            #expect(answer.object["data"] is NSNull && answer.header("Cache-Control") == "no-store")

            let refused = try await sandbox.refresh(session.refreshToken)
            #expect(refused.status == 401 && refused.object["code"] as? String == "UNAUTHORIZED", "\(refused.text)")
            #expect(refused.object["message"] as? String == "유효하지 않은 리프레시 토큰입니다")
            // Not a reuse: that would have revoked the other device's refresh token too.
            #expect(try await sandbox.refresh(otherDevice.refreshToken).status == 200)
        }
    }

    @Test("with Authorization, the access token stops working too; without, it lives until it expires")
    func revokesAccessTokenWhenSent() async throws {
        try await withAccountsSandbox { sandbox, _ in
            let name = "logout_\(UUID().uuidString.prefix(8).lowercased())"
            try await sandbox.register(name)
            let withBearer = try await sandbox.login(name)
            let withoutBearer = try await sandbox.login(name)

            #expect(try await sandbox.logout(withBearer.refreshToken, bearer: withBearer.token).status == 200)
            let shown = try await sandbox.showUser(withBearer.userId, token: withBearer.token)
            #expect(shown.status == 401 && shown.object["message"] as? String == "유효하지 않은 토큰입니다")

            #expect(try await sandbox.logout(withoutBearer.refreshToken).status == 200)
            #expect(try await sandbox.showUser(withoutBearer.userId, token: withoutBearer.token).status == 200)
            #expect(try await sandbox.refresh(withoutBearer.refreshToken).status == 401)
        }
    }

    @Test("logging out twice, or with a token never issued: 200 all the same (RFC 7009); no body 415, a wrong one 400, GET 405")
    func idempotentAndChecked() async throws {
        try await withAccountsSandbox { sandbox, _ in
            let issued = try await sandbox.registerAndLogin()
            for token in [issued.refreshToken, issued.refreshToken, LoginTokens.make(), "short"] {
                #expect(try await sandbox.logout(token).status == 200, "\(token)")
            }
            #expect(try await sandbox.send(.POST, "/api/v1/auth/logout").status == 415)
            let wrong = try await sandbox.send(
                .POST, "/api/v1/auth/logout", headers: [("Content-Type", "application/json")], body: Array(#"{"token":"x"}"#.utf8))
            #expect(wrong.status == 400, "\(wrong.text)")
            let get = try await sandbox.send(.GET, "/api/v1/auth/logout")
            #expect(get.status == 405 && get.header("Allow") == "POST")
        }
    }
}

extension RunningSandbox {
    /// `POST /api/v1/auth/logout` with `refreshToken`, and `bearer` as the access token when given.
    func logout(_ refreshToken: String, bearer: String? = nil) async throws -> Answer {
        let headers = [("Content-Type", "application/json")] + (bearer.map { [("Authorization", "Bearer \($0)")] } ?? [])
        return try await send(.POST, "/api/v1/auth/logout", headers: headers, body: Array(#"{"refreshToken":"\#(refreshToken)"}"#.utf8))
    }
}
