import Foundation
import IntegrationTestSupport
import Testing

@testable import CourierSandbox

/// The routes that decode a JSON body refuse one not declared JSON with 415: a web page may send
/// `text/plain` or a form to any site without a CORS preflight, but not `application/json`.
@Suite("Sandbox: JSON bodies need a JSON content type")
struct JSONContentTypeTests {
    /// The content types a page can send without asking first, and none at all.
    static let notJSON: [String?] = [
        nil, "text/plain", "text/plain; charset=utf-8", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
    ]

    @Test("register, login, refresh, logout and update: 415 UNSUPPORTED_MEDIA_TYPE in the wrapper, nothing done")
    func accountsRoutes() async throws {
        try await withAccountsSandbox { sandbox, _ in
            let issued = try await sandbox.registerAndLogin()
            let register =
                #"{"username":"ctype_\#(UUID().uuidString.prefix(6).lowercased())","password":"Passw0rd!","name":"a","email":"a@b.co","age":20}"#
            let calls: [(Method, String, String, [(String, String)])] = [
                (.POST, "/api/v1/users", register, []),
                (.POST, "/api/v1/auth/login", #"{"username":"nobody","password":"Passw0rd!"}"#, []),
                (.POST, "/api/v1/auth/refresh", #"{"refreshToken":"\#(issued.refreshToken)"}"#, []),
                (.POST, "/api/v1/auth/logout", #"{"refreshToken":"\#(issued.refreshToken)"}"#, []),
                (.PATCH, "/api/v1/users/\(issued.userId)", #"{"name":"changed"}"#, [("Authorization", "Bearer \(issued.token)")]),
            ]
            for (method, path, body, extra) in calls {
                for type in Self.notJSON {
                    let headers = extra + (type.map { [("Content-Type", $0)] } ?? [])
                    let answer = try await sandbox.send(method, path, headers: headers, body: Array(body.utf8))
                    #expect(answer.status == 415, "\(method) \(path) as \(type ?? "nothing") → \(answer.status) \(answer.text)")
                    #expect(answer.object["code"] as? String == "UNSUPPORTED_MEDIA_TYPE" && answer.object["success"] as? Bool == false)
                    #expect(answer.object["message"] as? String == "Content-Type: application/json이어야 합니다")
                }
            }
            let patch = try await sandbox.send(
                .PATCH, "/api/v1/users/\(issued.userId)", headers: [("Authorization", "Bearer \(issued.token)")],
                body: Array(#"{"name":"changed"}"#.utf8))
            #expect(patch.header("Accept-Patch") == "application/json")
            let post = try await sandbox.send(.POST, "/api/v1/users", body: Array(register.utf8))
            #expect(post.header("Accept-Post") == "application/json")

            // None of them did anything: the refresh token still works, the name is unchanged.
            let shown = try await sandbox.showUser(issued.userId, token: issued.token)
            #expect((shown.object["data"] as? [String: Any])?["name"] as? String == "홍길동")
            #expect(try await sandbox.refresh(issued.refreshToken).status == 200)
        }
    }

    @Test("application/json with parameters, in any case, and +json types are JSON")
    func jsonTypesAccepted() async throws {
        try await withAccountsSandbox { sandbox, _ in
            let issued = try await sandbox.registerAndLogin()
            for (index, type) in ["application/json; charset=utf-8", "Application/JSON", "application/merge-patch+json"].enumerated() {
                let answer = try await sandbox.send(
                    .PATCH, "/api/v1/users/\(issued.userId)",
                    headers: [("Authorization", "Bearer \(issued.token)"), ("Content-Type", type)],
                    body: Array(#"{"age":\#(30 + index)}"#.utf8))
                #expect(answer.status == 200, "\(type) → \(answer.text)")
            }
        }
    }

    @Test("the Alan stand-in's reset-state refuses a body not declared JSON (415); /echo still echoes anything")
    func alanAndEcho() async throws {
        try await withSandbox { sandbox in
            let body = Array(#"{"client_id":"ctype-test"}"#.utf8)
            for type in Self.notJSON {
                let answer = try await sandbox.send(
                    .DELETE, "/alan/api/v1/reset-state", headers: type.map { [("Content-Type", $0)] } ?? [], body: body)
                #expect(answer.status == 415, "\(type ?? "nothing") → \(answer.text)")
                #expect(answer.object["detail"] is String)
            }
            let reset = try await sandbox.send(.DELETE, "/alan/api/v1/reset-state", headers: [("Content-Type", "application/json")], body: body)
            #expect(reset.status == 200 && reset.text == "null")
            let echo = try await sandbox.send(.POST, "/echo", headers: [("Content-Type", "text/plain")], body: body)
            #expect(echo.status == 200)
        }
    }

    @Test("the LLM stand-ins refuse a body not declared JSON (415, in each service's error shape)")
    func llmStandIns() async throws {
        try await withSandbox { sandbox in
            let body = Array(#"{"model":"m","prompt":"p","messages":[{"role":"user","content":"p"}],"stream":true}"#.utf8)
            for path in ["/llm/openai/v1/chat/completions", "/llm/ollama/api/generate", "/llm/ollama/api/chat"] {
                for type in Self.notJSON {
                    let answer = try await sandbox.send(.POST, path, headers: type.map { [("Content-Type", $0)] } ?? [], body: body)
                    #expect(answer.status == 415, "\(path) as \(type ?? "nothing") → \(answer.status) \(answer.text)")
                    let error = answer.object["error"]
                    #expect(path.contains("openai") ? (error as? [String: Any])?["message"] is String : error is String)
                }
                let accepted = try await sandbox.send(.POST, path, headers: [("Content-Type", "application/json")], body: body)
                #expect(accepted.status == 200, "\(path) → \(accepted.text)")
            }
        }
    }

    @Test("JSONMediaType: what counts as JSON")
    func mediaTypes() {
        for type in [
            "application/json", "application/json;charset=utf-8", " APPLICATION/JSON ; q=1", "application/problem+json", "application/vnd.api+json",
        ] {
            #expect(JSONMediaType.matches(type), "\(type)")
        }
        for type in [
            nil, "", "text/plain", "application/jsonx", "application/json-seq", "application/+json", "+json", "json", "text/json/x",
            "application/x-www-form-urlencoded", "application/javascript",
        ] as [String?] {
            #expect(!JSONMediaType.matches(type), "\(type ?? "nil")")
        }
    }
}
