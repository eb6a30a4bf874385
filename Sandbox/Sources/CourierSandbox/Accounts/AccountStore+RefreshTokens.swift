import Foundation
import SQLiteNIO

/// What presenting a refresh token did.
enum RefreshRotation: Sendable, Equatable {
    /// It was valid: it is now rotated (never usable again) and the new pair is stored.
    case rotated(userID: Int)
    /// It had been rotated already, so someone replays it: every refresh token of the user is
    /// revoked (OAuth 2.0 Security BCP, refresh token reuse detection). Access tokens stay.
    case reused(userID: Int)
    /// It has expired (and is now deleted).
    case expired
    /// It was never issued, was revoked, or its user is gone.
    case unknown
}

/// Refresh tokens: like login tokens, only their SHA-256 is stored, with a state:
/// `active` (usable once), `rotated` (used; presenting it again is reuse) or `revoked`.
/// Rotated tokens are kept until they expire, so a replay is recognised for their whole lifetime.
extension AccountStore {
    /// Active refresh tokens kept per user (one per signed-in device, say); older ones are dropped.
    static let maxActiveRefreshTokensPerUser = 20
    /// Rotated and revoked refresh tokens kept per user for reuse detection.
    static let maxSpentRefreshTokensPerUser = 200

    static func createRefreshTokens(in db: SQLiteConnection) async throws {
        _ = try await db.query(
            """
            CREATE TABLE IF NOT EXISTS refresh_tokens (
                token_hash TEXT PRIMARY KEY,
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                state TEXT NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'rotated', 'revoked')),
                expires_at REAL NOT NULL,
                created_at REAL NOT NULL
            ) STRICT
            """)
        _ = try await db.query("CREATE INDEX IF NOT EXISTS refresh_tokens_by_user ON refresh_tokens(user_id, state)")
    }

    /// Stores a login's access and refresh tokens, in one transaction.
    func insertTokens(_ tokens: LoginTokenPair.Hashes, userID: Int) async throws {
        try await transaction { db in
            try await Self.storeToken(in: db, hash: tokens.token, userID: userID, expiresAt: tokens.expiresAt)
            try await Self.storeRefreshToken(in: db, hash: tokens.refreshToken, userID: userID, expiresAt: tokens.refreshExpiresAt)
        }
    }

    /// Spends the refresh token with `hash` and, when it was valid, stores `replacement` (access
    /// and refresh token) for its user, all in one transaction: two refreshes racing with one
    /// token get one rotation and one reuse.
    func rotateRefreshToken(hash: String, replacement: LoginTokenPair.Hashes) async throws -> RefreshRotation {
        try await transaction { db in
            guard
                let row = try await db.query(
                    "SELECT user_id, state, expires_at FROM refresh_tokens WHERE token_hash = ?", [.text(hash)]
                ).first,
                let userID = row.column("user_id")?.integer, let state = row.column("state")?.string,
                let expiresAt = row.column("expires_at")?.double
            else { return .unknown }
            guard expiresAt > Date().timeIntervalSince1970 else {
                _ = try await db.query("DELETE FROM refresh_tokens WHERE token_hash = ?", [.text(hash)])
                return .expired
            }
            switch state {
            case "active":
                _ = try await db.query("UPDATE refresh_tokens SET state = 'rotated' WHERE token_hash = ?", [.text(hash)])
                try await Self.storeToken(in: db, hash: replacement.token, userID: userID, expiresAt: replacement.expiresAt)
                try await Self.storeRefreshToken(in: db, hash: replacement.refreshToken, userID: userID, expiresAt: replacement.refreshExpiresAt)
                return .rotated(userID: userID)
            case "rotated":
                _ = try await db.query("UPDATE refresh_tokens SET state = 'revoked' WHERE user_id = ? AND state = 'active'", [.integer(userID)])
                return .reused(userID: userID)
            default:
                return .unknown
            }
        }
    }

    /// Logout: the active refresh token with `refreshHash` becomes `revoked` (kept, like a rotated
    /// one, until it expires) and the access token with `accessHash` is deleted, in one
    /// transaction. The user whose refresh token it was, or nil when it was not an active one.
    func revoke(refreshHash: String?, accessHash: String?) async throws -> Int? {
        try await transaction { db in
            var userID: Int?
            if let refreshHash {
                userID = try await db.query(
                    "UPDATE refresh_tokens SET state = 'revoked' WHERE token_hash = ? AND state = 'active' RETURNING user_id",
                    [.text(refreshHash)]
                ).first?.column("user_id")?.integer
            }
            if let accessHash {
                _ = try await db.query("DELETE FROM tokens WHERE token_hash = ?", [.text(accessHash)])
            }
            return userID
        }
    }

    /// Inserts an active refresh token inside a transaction, dropping the user's expired ones and
    /// keeping at most ``maxActiveRefreshTokensPerUser`` active and ``maxSpentRefreshTokensPerUser`` spent ones.
    static func storeRefreshToken(in db: SQLiteConnection, hash: String, userID: Int, expiresAt: Date) async throws {
        let now = Date().timeIntervalSince1970
        _ = try await db.query("DELETE FROM refresh_tokens WHERE user_id = ? AND expires_at <= ?", [.integer(userID), .float(now)])
        for (states, keep) in [("'active'", maxActiveRefreshTokensPerUser - 1), ("'rotated', 'revoked'", maxSpentRefreshTokensPerUser)] {
            _ = try await db.query(
                """
                DELETE FROM refresh_tokens WHERE user_id = ? AND state IN (\(states)) AND token_hash NOT IN
                (SELECT token_hash FROM refresh_tokens WHERE user_id = ? AND state IN (\(states)) ORDER BY created_at DESC LIMIT ?)
                """, [.integer(userID), .integer(userID), .integer(keep)])
        }
        _ = try await db.query(
            "INSERT INTO refresh_tokens (token_hash, user_id, expires_at, created_at) VALUES (?, ?, ?, ?)",
            [.text(hash), .integer(userID), .float(expiresAt.timeIntervalSince1970), .float(now)])
    }
}
