import Courier
public import Foundation

/// A login kept by ``Accounts``: who, on which server, until when. The token itself is kept
/// private; `description` never shows it.
public struct AccountsSession: Codable, Sendable, Equatable, CustomStringConvertible, CustomReflectable {
    /// The server logged in to.
    public var server: URL
    /// The account id.
    public var userId: Int
    /// The username used to log in.
    public var username: String
    /// When the token expires (nil: the server did not say).
    public var expiresAt: Date?
    var token: String?
    /// Gets the next token when this one expires or is refused (rotated on every use).
    var refreshToken: String?

    /// Creates a session (tests and custom stores).
    public init(server: URL, userId: Int, username: String, token: String?, expiresAt: Date?, refreshToken: String? = nil) {
        self.server = server
        self.userId = userId
        self.username = username
        self.token = token
        self.expiresAt = expiresAt
        self.refreshToken = refreshToken
    }

    /// The token as ``BearerTokenMiddleware`` sends it.
    var bearerToken: BearerTokenMiddleware.Token? { token.map { BearerTokenMiddleware.Token($0, expiresAt: expiresAt) } }

    /// Whether it can get a new token without the password.
    public var canRefresh: Bool { refreshToken != nil }

    /// Whether ``expiresAt`` has passed.
    public var isExpired: Bool { expiresAt.map { $0 <= Date() } ?? false }

    /// Whether there is a token to send.
    public var hasToken: Bool { token != nil }

    public var description: String {
        "AccountsSession(server: \(server.absoluteString), userId: \(userId), username: \(username), token: \(token == nil ? "nil" : "<redacted>"), refreshToken: \(refreshToken == nil ? "nil" : "<redacted>"), expiresAt: \(expiresAt.map(ISO8601Text.string(from:)) ?? "nil"))"
    }

    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "server": server, "userId": userId, "username": username, "token": token == nil ? "nil" : "<redacted>",
                "refreshToken": refreshToken == nil ? "nil" : "<redacted>", "expiresAt": expiresAt as Any,
            ])
    }
}
