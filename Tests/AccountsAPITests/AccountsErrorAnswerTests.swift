import Courier
import Foundation
import Synchronization
import Testing

@testable import CourierSandbox

@Suite("Accounts: every error answer has its status, code and message in the wrapper")
struct AccountsErrorAnswerTests {
    /// A registration body and the field its 400 must name.
    static let badRegistrations: [(body: String, field: String, contains: String)] = [
        (#"{"password":"Passw0rd!","name":"홍길동","email":"hong@example.com","age":25}"#, "username", "필수 항목"),
        (registerJSON("ab"), "username", "3~30자"),
        (registerJSON("bad name!"), "username", "영문자"),
        (registerJSON("_leading"), "username", "시작"),
        (registerJSON("okname1", password: "short1"), "password", "8~72바이트"),
        (registerJSON("okname2", password: String(repeating: "a1", count: 37)), "password", "8~72바이트"),
        (registerJSON("okname3", password: "onlyletters"), "password", "영문자와 숫자"),
        (registerJSON("samename1", password: "SameName1"), "password", "사용자명과 같을 수 없습니다"),
        (registerJSON("okname5", name: "   "), "name", "1~50자"),
        (registerJSON("okname6", email: "not-an-email"), "email", "이메일 형식"),
        (registerJSON("okname7", email: "a@b"), "email", "이메일 형식"),
        (registerJSON("okname8", email: "a b@example.com"), "email", "이메일 형식"),
        (registerJSON("okname9", age: "0"), "age", "1~150"),
        (registerJSON("okname10", age: "151"), "age", "1~150"),
        (registerJSON("okname11", age: "\"25\""), "age", "정수여야 합니다 (받은 값: string)"),
        (registerJSON("okname12", age: "25.5"), "age", "정수여야 합니다 (받은 값: number)"),
        (registerJSON("okname13", age: "true"), "age", "정수여야 합니다 (받은 값: boolean)"),
        (#"{"username":123,"password":"Passw0rd!","name":"n","email":"a@example.com","age":2}"#, "username", "문자열이어야 합니다"),
        (#"{"username":"okname14","password":"Passw0rd!","name":"n","email":"a@example.com","age":2,"isAdmin":true}"#, "isAdmin", "알 수 없는 필드"),
        ("not json", "body", "올바른 JSON이 아닙니다"),
        ("[1,2]", "body", "JSON 객체가 필요합니다"),
        ("", "body", "JSON 객체가 필요합니다"),
    ]

    @Test("400 for each broken registration, naming the field", arguments: 0..<badRegistrations.count)
    func badRegistration(index: Int) async throws {
        let sandbox = try await AccountsSandbox.start()
        let (body, field, contains) = Self.badRegistrations[index]
        let answer = try await sandbox.raw(.post, "/api/v1/users", json: body)
        #expect(answer.status == 400)
        #expect(answer.success == false && answer.code == "BAD_REQUEST" && answer.dataIsNull && answer.hasAllWrapperKeys)
        let message = try #require(answer.message)
        #expect(message.hasPrefix("\(field): "), "message \(message) should name \(field)")
        #expect(message.contains(contains))
        await sandbox.finish()
    }

    @Test("400 for bodies over the size limit, 415 for a non-JSON content type")
    func bodyLimits() async throws {
        let sandbox = try await AccountsSandbox.start { $0.maxBodyBytes = 1024 }
        let big = registerJSON("bigbody", name: String(repeating: "가", count: 600))
        let tooLarge = try await sandbox.raw(.post, "/api/v1/users", json: big)
        #expect(tooLarge.status == 400 && tooLarge.code == "BAD_REQUEST" && tooLarge.message == "body: 요청 본문이 너무 큽니다 (최대 1024바이트)")
        let login = try await sandbox.raw(.post, "/api/v1/auth/login", json: big)
        #expect(login.status == 400 && login.message?.hasPrefix("body:") == true)
        let form = try await sandbox.raw(.post, "/api/v1/users", json: "username=a", headers: ["Content-Type": "application/x-www-form-urlencoded"])
        #expect(form.status == 415 && form.code == "UNSUPPORTED_MEDIA_TYPE" && form.message == "Content-Type: application/json이어야 합니다")
        await sandbox.finish()
    }

    @Test("409 CONFLICT with the seed's message for a taken username, whatever its case")
    func conflict() async throws {
        let sandbox = try await AccountsSandbox.start()
        let name = uniqueName("dup")
        try await sandbox.register(name)
        for variant in [name, name.uppercased()] {
            let answer = try await sandbox.raw(.post, "/api/v1/users", json: registerJSON(variant))
            #expect(
                answer.status == 409 && answer.success == false && answer.code == "CONFLICT" && answer.message == "이미 존재하는 사용자명" && answer.dataIsNull)
        }
        await sandbox.finish()
    }

    @Test("other methods (405 with Allow) and unknown paths below the API (404) answer with the wrapper too")
    func fallbacks() async throws {
        let sandbox = try await AccountsSandbox.start()
        let put = try await sandbox.raw(.put, "/api/v1/users/1", json: "{}")
        #expect(put.status == 405 && put.code == "METHOD_NOT_ALLOWED" && put.header("Allow") == "GET, PATCH, DELETE" && put.hasAllWrapperKeys)
        let list = try await sandbox.raw(.get, "/api/v1/users")
        #expect(list.status == 405 && list.header("Allow") == "POST" && list.success == false)
        let loginGet = try await sandbox.raw(.get, "/api/v1/auth/login")
        #expect(loginGet.status == 405 && loginGet.header("Allow") == "POST")
        for path in ["/api/v1/users/1/friends", "/api/v1/auth/unknown"] {
            let unknown = try await sandbox.raw(.post, path, json: "{}")
            #expect(unknown.status == 404 && unknown.code == "NOT_FOUND" && unknown.message == "없는 API 경로입니다")
        }
        await sandbox.finish()
    }

    @Test("a wrong password and an unknown username give the very same answer")
    func sameAnswerForWrongPasswordAndUnknownUser() async throws {
        let sandbox = try await AccountsSandbox.start()
        let name = uniqueName()
        try await sandbox.register(name)
        let wrong = try await sandbox.raw(.post, "/api/v1/auth/login", json: #"{"username":"\#(name)","password":"Wrong0pass"}"#)
        let unknown = try await sandbox.raw(.post, "/api/v1/auth/login", json: #"{"username":"nobody_\#(name)","password":"Wrong0pass"}"#)
        #expect(wrong.status == 401 && wrong.code == "UNAUTHORIZED" && wrong.message == "아이디 또는 비밀번호가 올바르지 않습니다")
        #expect(wrong.response.body == unknown.response.body && wrong.status == unknown.status)
        let missing = try await sandbox.raw(.post, "/api/v1/auth/login", json: #"{"username":"\#(name)"}"#)
        #expect(missing.status == 400 && missing.message == "password: 필수 항목입니다")
        await sandbox.finish()
    }

    @Test("401 for a missing, malformed, unknown or expired token; 404 unknown id; 403 someone else's; 400 bad id")
    func tokensAndOwnership() async throws {
        // 10 s: the dozen calls below must all run before the token lapses, also on a loaded machine
        // (with 1 s, and with 5 s beside a release build, they sometimes did not: 401s instead).
        let sandbox = try await AccountsSandbox.start { $0.tokenLifetime = .seconds(10) }
        let alice = uniqueName("alice")
        let bob = uniqueName("bob")
        let aliceID = try await sandbox.register(alice)
        let bobID = try await sandbox.register(bob)
        let (_, token) = try await sandbox.login(alice)
        let bearer = ["Authorization": "Bearer \(token)"]

        let missing = try await sandbox.raw(.get, "/api/v1/users/\(aliceID)")
        #expect(missing.status == 401 && missing.code == "UNAUTHORIZED" && missing.message == "인증이 필요합니다 (Authorization: Bearer 토큰)")
        #expect(missing.header("WWW-Authenticate") == "Bearer")
        for header in ["Basic YWxpY2U6cGFzcw==", "Bearer short", "Bearer " + String(repeating: "A", count: 43)] {
            let bad = try await sandbox.raw(.get, "/api/v1/users/\(aliceID)", headers: ["Authorization": header])
            #expect(bad.status == 401 && bad.message == "유효하지 않은 토큰입니다" && bad.header("WWW-Authenticate") == #"Bearer error="invalid_token""#)
        }
        let unknownID = try await sandbox.raw(.get, "/api/v1/users/999999", headers: bearer)
        #expect(unknownID.status == 404 && unknownID.code == "NOT_FOUND" && unknownID.message == "사용자를 찾을 수 없습니다")
        for method in [HTTPMethodName.get, .patch, .delete] {
            let forbidden = try await sandbox.raw(
                method.method, "/api/v1/users/\(bobID)", json: method == .patch ? #"{"name":"x"}"# : nil, headers: bearer)
            #expect(forbidden.status == 403 && forbidden.code == "FORBIDDEN" && forbidden.message == "본인 계정만 조회·수정·삭제할 수 있습니다")
        }
        let badID = try await sandbox.raw(.get, "/api/v1/users/abc", headers: bearer)
        #expect(badID.status == 400 && badID.message == "id: 양의 정수여야 합니다")
        let emptyUpdate = try await sandbox.raw(.patch, "/api/v1/users/\(aliceID)", json: "{}", headers: bearer)
        #expect(emptyUpdate.status == 400 && emptyUpdate.message == "body: name, email, age 중 하나 이상이 필요합니다")
        let badEmail = try await sandbox.raw(.patch, "/api/v1/users/\(aliceID)", json: #"{"email":"nope"}"#, headers: bearer)
        #expect(badEmail.status == 400 && badEmail.message?.hasPrefix("email:") == true)
        let unknownField = try await sandbox.raw(.patch, "/api/v1/users/\(aliceID)", json: #"{"username":"rename"}"#, headers: bearer)
        #expect(unknownField.status == 400 && unknownField.message?.hasPrefix("username: 알 수 없는 필드") == true)

        try await Task.sleep(for: .milliseconds(10_200))
        let expired = try await sandbox.raw(.get, "/api/v1/users/\(aliceID)", headers: bearer)
        #expect(expired.status == 401 && expired.message == "토큰이 만료되었습니다. 다시 로그인하세요")
        let expiredAgain = try await sandbox.raw(.get, "/api/v1/users/\(aliceID)", headers: bearer)
        #expect(expiredAgain.status == 401, "an expired token stays refused (deleted on sight)")
        await sandbox.finish()
    }

    @Test("5 failed logins for one username → 429 with Retry-After, even with the right password")
    func rateLimitPerUsername() async throws {
        let sandbox = try await AccountsSandbox.start()
        let name = uniqueName()
        try await sandbox.register(name)
        for _ in 0..<5 {
            let answer = try await sandbox.raw(.post, "/api/v1/auth/login", json: #"{"username":"\#(name)","password":"Wrong0pass"}"#)
            #expect(answer.status == 401)
        }
        let limited = try await sandbox.raw(.post, "/api/v1/auth/login", json: #"{"username":"\#(name.uppercased())","password":"Passw0rd!"}"#)
        #expect(limited.status == 429 && limited.code == "TOO_MANY_REQUESTS" && limited.success == false && limited.dataIsNull)
        let retryAfter = try #require(limited.header("Retry-After").flatMap(Int.init))
        #expect((1...60).contains(retryAfter))
        #expect(limited.message == "로그인 시도가 너무 많습니다. \(retryAfter)초 후에 다시 시도하세요")
        // Another username from the same address is not affected by this username's limit.
        let other = uniqueName()
        try await sandbox.register(other)
        _ = try await sandbox.login(other)
        await sandbox.finish()
    }

    @Test("the limiter's sliding window: parallel guesses cannot overrun it, it reopens as attempts age out, success clears it")
    func slidingWindow() async {
        let clock = ManualClock()
        var limits = AccountsSettings.LoginLimits()
        limits.failuresPerUsername = 3
        limits.attemptsPerAddress = 100
        limits.window = .seconds(60)
        let limiter = LoginRateLimiter(limits: limits, now: { clock.now })
        // Three admitted before any finishes (hashes still running): the fourth must wait.
        for _ in 0..<3 { #expect(await limiter.admit(username: "kim", address: "a") == nil) }
        #expect(await limiter.admit(username: "KIM", address: "b") == 60)
        clock.advance(.seconds(45))
        #expect(await limiter.admit(username: "kim", address: "a") == 15)
        #expect(await limiter.admit(username: "lee", address: "a") == nil, "other usernames are unaffected")
        clock.advance(.seconds(16))
        #expect(await limiter.admit(username: "kim", address: "a") == nil, "the window has passed")
        await limiter.recordSuccess(username: "kim")
        for _ in 0..<3 { #expect(await limiter.admit(username: "kim", address: "a") == nil) }

        var perAddress = AccountsSettings.LoginLimits()
        perAddress.attemptsPerAddress = 2
        let addressLimiter = LoginRateLimiter(limits: perAddress, now: { clock.now })
        #expect(await addressLimiter.admit(username: "a", address: "10.0.0.1") == nil)
        #expect(await addressLimiter.admit(username: "b", address: "10.0.0.1") == nil)
        #expect(await addressLimiter.admit(username: "c", address: "10.0.0.1") != nil)
        #expect(await addressLimiter.admit(username: "c", address: "10.0.0.2") == nil)
    }

    @Test("too many attempts from one address → 429, whatever the usernames")
    func rateLimitPerAddress() async throws {
        let sandbox = try await AccountsSandbox.start { $0.loginLimits.attemptsPerAddress = 4 }
        for index in 0..<4 {
            let answer = try await sandbox.raw(.post, "/api/v1/auth/login", json: #"{"username":"ghost\#(index)","password":"Wrong0pass"}"#)
            #expect(answer.status == 401)
        }
        let limited = try await sandbox.raw(.post, "/api/v1/auth/login", json: #"{"username":"ghost9","password":"Wrong0pass"}"#)
        #expect(limited.status == 429 && limited.code == "TOO_MANY_REQUESTS" && limited.header("Retry-After") != nil)
        await sandbox.finish()
    }
}

/// The methods used on `/users/{id}`.
enum HTTPMethodName {
    case get, patch, delete

    var method: HTTPMethod {
        switch self {
        case .get: .get
        case .patch: .patch
        case .delete: .delete
        }
    }
}

/// A clock a test moves by hand.
final class ManualClock: Sendable {
    private let current = Mutex<ContinuousClock.Instant>(.now)

    var now: ContinuousClock.Instant { current.withLock { $0 } }

    func advance(_ duration: Duration) {
        current.withLock { $0 += duration }
    }
}
