import Foundation

/// What a login or a refresh hands out: a bearer (access) token and a refresh token, each with
/// its expiry time.
struct LoginTokenPair: Sendable {
    let token: String
    let expiresAt: Date
    let refreshToken: String
    let refreshExpiresAt: Date

    /// What the database keeps of a pair: the tokens' SHA-256 and the expiry times.
    struct Hashes: Sendable {
        let token: String
        let expiresAt: Date
        let refreshToken: String
        let refreshExpiresAt: Date
    }

    /// Two new tokens with the lifetimes of `settings`, counted from `now`.
    init(settings: AccountsSettings, now: Date = Date()) {
        token = LoginTokens.make()
        expiresAt = now.addingTimeInterval(UserAPIHandlers.seconds(settings.tokenLifetime))
        refreshToken = LoginTokens.make()
        refreshExpiresAt = now.addingTimeInterval(UserAPIHandlers.seconds(settings.refreshTokenLifetime))
    }

    var hashes: Hashes {
        Hashes(
            token: LoginTokens.storedHash(of: token), expiresAt: expiresAt,
            refreshToken: LoginTokens.storedHash(of: refreshToken), refreshExpiresAt: refreshExpiresAt)
    }
}
