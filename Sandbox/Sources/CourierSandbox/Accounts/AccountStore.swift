import Foundation
import Logging
import SQLiteNIO

/// One account as stored, without its password hash; encodes as the seed's `UserResponse`.
struct UserRecord: Codable, Sendable, Equatable {
    var id: Int
    var username: String
    var name: String
    var email: String
    var age: Int
    var status: String
}

/// What a presented token turned out to be.
enum TokenLookup: Sendable, Equatable {
    case valid(userID: Int)
    case expired
    case unknown
}

/// The accounts database: one SQLite file in WAL mode with `synchronous=FULL`, so a committed
/// write survives a kill (and a power cut) and a kill mid-write leaves the last committed state.
/// Refresh tokens are in `AccountStore+RefreshTokens.swift`.
///
/// Every statement goes through one lock, so a transaction's statements are never interleaved
/// with another request's on the shared connection.
actor AccountStore {
    private let connection: SQLiteConnection
    private let lock = AsyncLock()
    private static let maxTokensPerUser = 20

    /// Opens (creating if needed) the database at `file` and brings its schema up to date; with
    /// no file, a private in-memory database that goes away with the store.
    static func open(file: URL?, logger: Logger) async throws -> AccountStore {
        var quiet = logger
        quiet.logLevel = max(logger.logLevel, .warning)  // sqlite-nio logs statements at debug
        let connection: SQLiteConnection
        if let file {
            try PrivateDatabaseFile.prepare(file)
            connection = try await SQLiteConnection.open(storage: .file(path: file.path), logger: quiet)
        } else {
            connection = try await SQLiteConnection.open(storage: .memory, logger: quiet)
        }
        let store = AccountStore(connection: connection)
        try await store.migrate()
        return store
    }

    private init(connection: SQLiteConnection) {
        self.connection = connection
    }

    deinit {
        // The connection must be closed before it is released; closing keeps it alive until done.
        _ = connection.close()
    }

    private func migrate() async throws {
        _ = try await query("PRAGMA journal_mode = WAL")
        _ = try await query("PRAGMA synchronous = FULL")
        _ = try await query("PRAGMA foreign_keys = ON")
        try await transaction { db in
            let version = try await db.query("PRAGMA user_version").first?.column("user_version")?.integer ?? 0
            guard version < 1 else { return }
            _ = try await db.query(
                """
                CREATE TABLE IF NOT EXISTS users (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    username TEXT NOT NULL COLLATE NOCASE UNIQUE,
                    password_hash TEXT NOT NULL,
                    name TEXT NOT NULL,
                    email TEXT NOT NULL,
                    age INTEGER NOT NULL CHECK (age BETWEEN 1 AND 150),
                    status TEXT NOT NULL DEFAULT 'ACTIVE',
                    created_at REAL NOT NULL,
                    updated_at REAL NOT NULL
                ) STRICT
                """)
            _ = try await db.query(
                """
                CREATE TABLE IF NOT EXISTS tokens (
                    token_hash TEXT PRIMARY KEY,
                    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    expires_at REAL NOT NULL,
                    created_at REAL NOT NULL
                ) STRICT
                """)
            _ = try await db.query("CREATE INDEX IF NOT EXISTS tokens_by_user ON tokens(user_id)")
            _ = try await db.query("PRAGMA user_version = 1")
        }
        // Schema 2 adds refresh tokens; a schema-1 file from before them is upgraded in place.
        try await transaction { db in
            let version = try await db.query("PRAGMA user_version").first?.column("user_version")?.integer ?? 0
            guard version < 2 else { return }
            try await Self.createRefreshTokens(in: db)
            _ = try await db.query("PRAGMA user_version = 2")
        }
    }

    // MARK: Users

    /// Whether `username` is taken (case-insensitively).
    func usernameExists(_ username: String) async throws -> Bool {
        try await query("SELECT 1 FROM users WHERE username = ?", [.text(username)]).isEmpty == false
    }

    /// Inserts a user; nil when the username is taken (the UNIQUE constraint decides races).
    func insertUser(username: String, passwordHash: String, name: String, email: String, age: Int) async throws -> UserRecord? {
        let now = Date().timeIntervalSince1970
        do {
            let rows = try await query(
                """
                INSERT INTO users (username, password_hash, name, email, age, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING \(Self.userColumns)
                """, [.text(username), .text(passwordHash), .text(name), .text(email), .integer(age), .float(now), .float(now)])
            return rows.first.flatMap(Self.user)
        } catch let error as SQLiteError where error.reason == .constraintUniqueFailed || error.reason == .constraint {
            return nil
        }
    }

    /// The user with `id`.
    func user(id: Int) async throws -> UserRecord? {
        try await query("SELECT \(Self.userColumns) FROM users WHERE id = ?", [.integer(id)]).first.flatMap(Self.user)
    }

    /// The id and password hash for `username`, for login.
    func credentials(username: String) async throws -> (id: Int, passwordHash: String)? {
        let row = try await query("SELECT id, password_hash FROM users WHERE username = ?", [.text(username)]).first
        guard let id = row?.column("id")?.integer, let hash = row?.column("password_hash")?.string else { return nil }
        return (id, hash)
    }

    /// Changes the given fields; nil when the user does not exist.
    func updateUser(id: Int, name: String?, email: String?, age: Int?) async throws -> UserRecord? {
        let rows = try await query(
            """
            UPDATE users SET name = COALESCE(?, name), email = COALESCE(?, email), age = COALESCE(?, age), updated_at = ?
            WHERE id = ? RETURNING \(Self.userColumns)
            """,
            [
                name.map { .text($0) } ?? .null, email.map { .text($0) } ?? .null, age.map { .integer($0) } ?? .null,
                .float(Date().timeIntervalSince1970), .integer(id),
            ])
        return rows.first.flatMap(Self.user)
    }

    /// Deletes the user and (by cascade, in the same statement) all their tokens.
    func deleteUser(id: Int) async throws -> Bool {
        try await query("DELETE FROM users WHERE id = ? RETURNING id", [.integer(id)]).isEmpty == false
    }

    /// The number of users.
    func userCount() async throws -> Int {
        try await query("SELECT COUNT(*) AS n FROM users").first?.column("n")?.integer ?? 0
    }

    // MARK: Tokens

    /// Stores a token's hash for `userID` inside a transaction, dropping the user's expired tokens
    /// and all but the newest ``maxTokensPerUser``.
    static func storeToken(in db: SQLiteConnection, hash: String, userID: Int, expiresAt: Date) async throws {
        let now = Date().timeIntervalSince1970
        _ = try await db.query("DELETE FROM tokens WHERE user_id = ? AND expires_at <= ?", [.integer(userID), .float(now)])
        _ = try await db.query(
            """
            DELETE FROM tokens WHERE user_id = ? AND token_hash NOT IN
            (SELECT token_hash FROM tokens WHERE user_id = ? ORDER BY created_at DESC LIMIT ?)
            """, [.integer(userID), .integer(userID), .integer(maxTokensPerUser - 1)])
        _ = try await db.query(
            "INSERT INTO tokens (token_hash, user_id, expires_at, created_at) VALUES (?, ?, ?, ?)",
            [.text(hash), .integer(userID), .float(expiresAt.timeIntervalSince1970), .float(now)])
    }

    /// Who a token hash belongs to; an expired token is deleted on sight.
    func lookupToken(hash: String) async throws -> TokenLookup {
        guard let row = try await query("SELECT user_id, expires_at FROM tokens WHERE token_hash = ?", [.text(hash)]).first,
            let userID = row.column("user_id")?.integer, let expiresAt = row.column("expires_at")?.double
        else { return .unknown }
        guard expiresAt > Date().timeIntervalSince1970 else {
            _ = try await query("DELETE FROM tokens WHERE token_hash = ?", [.text(hash)])
            return .expired
        }
        return .valid(userID: userID)
    }

    // MARK: Plumbing

    private static let userColumns = "id, username, name, email, age, status"

    private static func user(_ row: SQLiteRow) -> UserRecord? {
        guard let id = row.column("id")?.integer, let username = row.column("username")?.string,
            let name = row.column("name")?.string, let email = row.column("email")?.string,
            let age = row.column("age")?.integer, let status = row.column("status")?.string
        else { return nil }
        return UserRecord(id: id, username: username, name: name, email: email, age: age, status: status)
    }

    func query(_ sql: String, _ binds: [SQLiteData] = []) async throws -> [SQLiteRow] {
        let connection = self.connection
        return try await lock.withLock { try await connection.query(sql, binds) }
    }

    /// Runs `body` between `BEGIN IMMEDIATE` and `COMMIT` (rolled back if it throws).
    @discardableResult
    func transaction<T: Sendable>(_ body: @Sendable (SQLiteConnection) async throws -> T) async throws -> T {
        let connection = self.connection
        return try await lock.withLock {
            _ = try await connection.query("BEGIN IMMEDIATE")
            do {
                let result = try await body(connection)
                _ = try await connection.query("COMMIT")
                return result
            } catch {
                _ = try? await connection.query("ROLLBACK")
                throw error
            }
        }
    }
}
