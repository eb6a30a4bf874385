public import Foundation

/// `POST /api/v1/users`: a new account (the seminar's `RegisterRequest`).
///
/// Its `description` and mirror hide the password, so printing or dumping it is safe.
public struct RegisterRequest: Codable, Sendable, Equatable {
    /// 3–30 characters of letters, digits, `_ . -`; unique regardless of case.
    public var username: String
    /// 8–72 bytes with a letter and a digit.
    public var password: String
    /// Display name.
    public var name: String
    /// E-mail address.
    public var email: String
    /// Age, 1–150.
    public var age: Int

    /// Creates the request.
    public init(username: String, password: String, name: String, email: String, age: Int) {
        self.username = username
        self.password = password
        self.name = name
        self.email = email
        self.age = age
    }
}

/// `POST /api/v1/auth/login` (the seminar's `LoginRequest`). Its `description` hides the password.
public struct LoginRequest: Codable, Sendable, Equatable {
    /// The account's username.
    public var username: String
    /// The account's password.
    public var password: String

    /// Creates the request.
    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }
}

/// The answer to a login: the seed's `userId` and `message`, plus the bearer token the other
/// calls need and when it expires (both nil from a server that, like the seed's, has no tokens).
/// Its `description` hides the token.
public struct LoginResponse: Codable, Sendable, Equatable {
    /// The logged-in account's id.
    public var userId: Int
    /// The server's message, e.g. "로그인 성공".
    public var message: String
    /// The bearer token for `Authorization: Bearer …`.
    public var token: String?
    /// When ``token`` stops working.
    public var expiresAt: Date?
    /// The token that gets a new ``token`` from `POST /api/v1/auth/refresh` (once: it is rotated).
    public var refreshToken: String?
    /// When ``refreshToken`` stops working.
    public var refreshExpiresAt: Date?

    /// Creates the response.
    public init(
        userId: Int, message: String, token: String? = nil, expiresAt: Date? = nil,
        refreshToken: String? = nil, refreshExpiresAt: Date? = nil
    ) {
        self.userId = userId
        self.message = message
        self.token = token
        self.expiresAt = expiresAt
        self.refreshToken = refreshToken
        self.refreshExpiresAt = refreshExpiresAt
    }

    /// Reads `expiresAt` as ISO 8601 text (what the sandbox sends) or seconds since 1970,
    /// whatever the decoder's date strategy.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        userId = try container.decode(Int.self, forKey: .userId)
        message = try container.decodeIfPresent(String.self, forKey: .message) ?? ""
        token = try container.decodeIfPresent(String.self, forKey: .token)
        expiresAt = try Self.date(container, .expiresAt)
        refreshToken = try container.decodeIfPresent(String.self, forKey: .refreshToken)
        refreshExpiresAt = try Self.date(container, .refreshExpiresAt)
    }

    private static func date(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> Date? {
        if let text = try? container.decodeIfPresent(String.self, forKey: key) {
            guard let date = ISO8601Text.date(from: text) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "not an ISO 8601 date: \(text)")
            }
            return date
        }
        return try container.decodeIfPresent(Double.self, forKey: key).map { Date(timeIntervalSince1970: $0) }
    }

    /// Writes `expiresAt` as ISO 8601 text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(userId, forKey: .userId)
        try container.encode(message, forKey: .message)
        try container.encodeIfPresent(token, forKey: .token)
        try container.encodeIfPresent(expiresAt.map(ISO8601Text.string(from:)), forKey: .expiresAt)
        try container.encodeIfPresent(refreshToken, forKey: .refreshToken)
        try container.encodeIfPresent(refreshExpiresAt.map(ISO8601Text.string(from:)), forKey: .refreshExpiresAt)
    }

    private enum CodingKeys: String, CodingKey { case userId, message, token, expiresAt, refreshToken, refreshExpiresAt }
}

/// The body of `POST /api/v1/auth/refresh`. Its `description` hides the token.
public struct RefreshRequest: Codable, Sendable, Equatable, CustomStringConvertible, CustomReflectable {
    /// The refresh token from the login or the previous refresh.
    public var refreshToken: String

    /// Creates the request.
    public init(refreshToken: String) {
        self.refreshToken = refreshToken
    }

    public var description: String { "RefreshRequest(refreshToken: <redacted>)" }

    public var customMirror: Mirror { Mirror(self, children: ["refreshToken": "<redacted>"]) }
}

/// An account as the server shows it to its owner (the seminar's `UserResponse`).
public struct UserResponse: Codable, Sendable, Equatable {
    /// The account id.
    public var id: Int
    /// The username.
    public var username: String
    /// Display name.
    public var name: String
    /// E-mail address.
    public var email: String
    /// Age.
    public var age: Int
    /// `"ACTIVE"` for a usable account.
    public var status: String

    /// Creates the value.
    public init(id: Int, username: String, name: String, email: String, age: Int, status: String) {
        self.id = id
        self.username = username
        self.name = name
        self.email = email
        self.age = age
        self.status = status
    }
}

/// `PATCH /api/v1/users/{id}`: the fields to change; nil fields are left out of the body and
/// keep their value (the seminar's `UpdateUserRequest`).
public struct UpdateUserRequest: Codable, Sendable, Equatable {
    /// New display name.
    public var name: String?
    /// New e-mail address.
    public var email: String?
    /// New age.
    public var age: Int?

    /// Creates the request.
    public init(name: String? = nil, email: String? = nil, age: Int? = nil) {
        self.name = name
        self.email = email
        self.age = age
    }

    /// Whether no field is set (the server answers such a request with 400).
    public var isEmpty: Bool { name == nil && email == nil && age == nil }
}

// MARK: Secrets stay out of print(), dump() and string interpolation

extension RegisterRequest: CustomStringConvertible, CustomReflectable {
    public var description: String {
        "RegisterRequest(username: \(username), password: <redacted>, name: \(name), email: \(email), age: \(age))"
    }

    public var customMirror: Mirror {
        Mirror(self, children: ["username": username, "password": "<redacted>", "name": name, "email": email, "age": age])
    }
}

extension LoginRequest: CustomStringConvertible, CustomReflectable {
    public var description: String { "LoginRequest(username: \(username), password: <redacted>)" }

    public var customMirror: Mirror { Mirror(self, children: ["username": username, "password": "<redacted>"]) }
}

extension LoginResponse: CustomStringConvertible, CustomReflectable {
    public var description: String {
        "LoginResponse(userId: \(userId), message: \(message), token: \(token == nil ? "nil" : "<redacted>"), expiresAt: \(expiresAt.map(ISO8601Text.string(from:)) ?? "nil"), refreshToken: \(refreshToken == nil ? "nil" : "<redacted>"))"
    }

    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "userId": userId, "message": message, "token": token == nil ? "nil" : "<redacted>", "expiresAt": expiresAt as Any,
                "refreshToken": refreshToken == nil ? "nil" : "<redacted>",
            ])
    }
}

/// ISO 8601 dates with or without fractional seconds.
enum ISO8601Text {
    static func date(from text: String) -> Date? {
        if let date = try? Date(text, strategy: .iso8601) { return date }
        return try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    static func string(from date: Date) -> String {
        date.formatted(.iso8601)
    }
}
