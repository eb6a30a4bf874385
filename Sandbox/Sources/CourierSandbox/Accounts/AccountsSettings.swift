import Foundation

/// How the sandbox's User API behaves: password hashing cost, token lifetimes, limits.
///
/// The defaults suit a developer machine. A test or a benchmark that needs other values sets
/// them for the servers it starts, without touching ``SandboxServer/Options``:
/// ```swift
/// var settings = AccountsSettings()
/// settings.loginLimits.attemptsPerAddress = 10_000
/// let sandbox = try await AccountsSettings.$override.withValue(settings) {
///     try await SandboxServer.start(options: options)
/// }
/// ```
public struct AccountsSettings: Sendable {
    /// bcrypt cost (log₂ of the rounds). 10 is OWASP's floor for bcrypt; each step doubles the time.
    public var bcryptCost: UInt8 = 10
    /// How long a login token (the access token) is valid.
    public var tokenLifetime: Duration = .seconds(3600)
    /// How long a refresh token is valid; each refresh hands out a new one with this lifetime.
    public var refreshTokenLifetime: Duration = .seconds(30 * 24 * 3600)
    /// Request bodies larger than this many bytes are refused with 400.
    public var maxBodyBytes: Int = 16 * 1024
    /// Login rate limits.
    public var loginLimits = LoginLimits()
    /// The SQLite file inside the data directory.
    public var databaseFileName = "accounts.sqlite"

    /// Sliding-window limits on `POST /api/v1/auth/login`; over a limit the answer is 429 with `Retry-After`.
    public struct LoginLimits: Sendable {
        /// Failed attempts allowed per username within ``window`` (an unknown username counts too,
        /// so the limit does not reveal which names exist).
        public var failuresPerUsername: Int = 5
        /// Attempts (failed or not) allowed per client address within ``window``. When the peer
        /// address is not available to the route, all clients share this bucket.
        public var attemptsPerAddress: Int = 30
        /// The window both limits count in.
        public var window: Duration = .seconds(60)

        /// The defaults: 5 failures per username and 30 attempts per address per minute.
        public init() {}
    }

    /// The defaults.
    public init() {}

    /// Settings used by servers started in the current task instead of the defaults.
    @TaskLocal public static var override: AccountsSettings?
}
