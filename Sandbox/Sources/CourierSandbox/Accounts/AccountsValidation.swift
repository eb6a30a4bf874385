import Foundation

/// The rules each field of the User API must follow; every failure names the field.
///
/// - username: 3–30 characters of `a–z A–Z 0–9 _ . -`, starting with a letter or digit;
///   unique regardless of case.
/// - password: 8–72 UTF-8 bytes (bcrypt reads 72), at least one letter and one digit, no
///   control characters, not the username.
/// - name: 1–50 characters after trimming, no control characters.
/// - email: `local@domain.tld`, at most 254 characters, no spaces.
/// - age: 1–150.
enum AccountsValidation {
    static let usernameLength = 3...30
    static let passwordBytes = 8...72
    static let nameLength = 1...50
    static let ageRange = 1...150

    static func username(_ value: String) throws(AccountsFailure) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")
        guard usernameLength.contains(value.count), value.allSatisfy({ allowed.contains($0) }),
            let first = value.first, first.isLetter || first.isNumber
        else {
            throw .badRequest("username", "3~30자의 영문자, 숫자, '_', '.', '-'만 쓸 수 있고 영문자나 숫자로 시작해야 합니다")
        }
        return value
    }

    static func password(_ value: String, username: String?) throws(AccountsFailure) {
        guard passwordBytes.contains(value.utf8.count) else {
            throw .badRequest("password", "8~72바이트여야 합니다")
        }
        guard !value.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) else {
            throw .badRequest("password", "제어 문자는 쓸 수 없습니다")
        }
        guard value.contains(where: \.isLetter), value.contains(where: \.isNumber) else {
            throw .badRequest("password", "영문자와 숫자를 모두 포함해야 합니다")
        }
        if let username, value.lowercased() == username.lowercased() {
            throw .badRequest("password", "사용자명과 같을 수 없습니다")
        }
    }

    static func name(_ value: String) throws(AccountsFailure) -> String {
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        guard nameLength.contains(trimmed.count),
            !trimmed.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) })
        else {
            throw .badRequest("name", "1~50자여야 합니다")
        }
        return trimmed
    }

    static func email(_ value: String) throws(AccountsFailure) -> String {
        let parts = value.split(separator: "@", omittingEmptySubsequences: false)
        let invalid = AccountsFailure.badRequest("email", "이메일 형식이 올바르지 않습니다 (예: hong@example.com)")
        guard value.count <= 254, parts.count == 2, !value.contains(where: { $0.isWhitespace || $0.isNewline }),
            !value.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) })
        else { throw invalid }
        let local = parts[0]
        let domain = parts[1]
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard !local.isEmpty, local.count <= 64, labels.count >= 2,
            labels.allSatisfy({ !$0.isEmpty && !$0.hasPrefix("-") && !$0.hasSuffix("-") }),
            let top = labels.last, top.count >= 2, top.allSatisfy(\.isLetter)
        else { throw invalid }
        return value
    }

    static func age(_ value: Int) throws(AccountsFailure) -> Int {
        guard ageRange.contains(value) else { throw .badRequest("age", "1~150 사이의 정수여야 합니다") }
        return value
    }
}

/// A checked `POST /api/v1/users` body.
struct RegisterInput: Sendable {
    var username: String
    var password: String
    var name: String
    var email: String
    var age: Int

    init(_ body: Data) throws(AccountsFailure) {
        let reader = try JSONObjectReader(body, allowed: ["username", "password", "name", "email", "age"])
        username = try AccountsValidation.username(reader.string("username"))
        password = try reader.string("password")
        try AccountsValidation.password(password, username: username)
        name = try AccountsValidation.name(reader.string("name"))
        email = try AccountsValidation.email(reader.string("email"))
        age = try AccountsValidation.age(reader.integer("age"))
    }
}

/// A checked `POST /api/v1/auth/login` body. Only presence and type are checked: a password
/// that breaks today's rules must still get the same answer as a wrong one.
struct LoginInput: Sendable {
    var username: String
    var password: String

    init(_ body: Data) throws(AccountsFailure) {
        let reader = try JSONObjectReader(body, allowed: ["username", "password"])
        username = try reader.string("username")
        password = try reader.string("password")
        guard !username.isEmpty, username.count <= 100 else { throw .badRequest("username", "1~100자여야 합니다") }
        guard !password.isEmpty, password.utf8.count <= 1024 else { throw .badRequest("password", "1~1024바이트여야 합니다") }
    }
}

/// A checked `POST /api/v1/auth/refresh` body. Only presence and type are checked here: a
/// malformed token is answered like an unknown one (401).
struct RefreshInput: Sendable {
    var refreshToken: String

    init(_ body: Data) throws(AccountsFailure) {
        refreshToken = try JSONObjectReader(body, allowed: ["refreshToken"]).string("refreshToken")
    }
}

/// A checked `PATCH /api/v1/users/{id}` body: any of name, email, age; at least one.
struct UpdateInput: Sendable {
    var name: String?
    var email: String?
    var age: Int?

    init(_ body: Data) throws(AccountsFailure) {
        let reader = try JSONObjectReader(body, allowed: ["name", "email", "age"])
        name = try reader.optionalString("name").map { value throws(AccountsFailure) in try AccountsValidation.name(value) }
        email = try reader.optionalString("email").map { value throws(AccountsFailure) in try AccountsValidation.email(value) }
        age = try reader.optionalInteger("age").map { value throws(AccountsFailure) in try AccountsValidation.age(value) }
        guard name != nil || email != nil || age != nil else {
            throw .badRequest("body", "name, email, age 중 하나 이상이 필요합니다")
        }
    }
}
