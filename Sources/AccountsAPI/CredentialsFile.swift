public import Foundation

/// Logins saved between runs of the CLI, one per server, in a JSON file only its owner can read
/// or write (mode 0600, folder 0700). Writes go to a temporary file created 0600 and renamed
/// over the old one, so the file is never readable by others, not even for a moment, and a
/// crash leaves either the old or the new content.
public struct CredentialsFile: Sendable {
    /// The file.
    public let url: URL

    /// The file at `url`.
    public init(url: URL) {
        self.url = url
    }

    /// `$XDG_CONFIG_HOME/courier/credentials.json`, or `~/.config/courier/credentials.json`.
    public static var defaultURL: URL {
        let environment = ProcessInfo.processInfo.environment
        let base =
            environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config")
        return base.appendingPathComponent("courier").appendingPathComponent("credentials.json")
    }

    private struct Contents: Codable {
        var version = 1
        var sessions: [String: AccountsSession] = [:]
    }

    /// The saved session for `server`, if any.
    public func session(for server: URL) throws(AccountsError) -> AccountsSession? {
        try read().sessions[Self.key(server)]
    }

    /// Saves (or with nil, removes) the session for `server`, keeping the others.
    public func save(_ session: AccountsSession?, for server: URL) throws(AccountsError) {
        var contents = try read()
        contents.sessions[Self.key(server)] = session
        if contents.sessions.isEmpty {
            do {
                if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
            } catch {
                throw .credentials("\(url.path): \(error.localizedDescription)")
            }
            return
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        let data: Data
        do { data = try encoder.encode(contents) } catch { throw .credentials("encoding failed") }
        try write(data)
    }

    private func read() throws(AccountsError) -> Contents {
        guard FileManager.default.fileExists(atPath: url.path) else { return Contents() }
        let data: Data
        do { data = try Data(contentsOf: url) } catch { throw .credentials("\(url.path): \(error.localizedDescription)") }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            return try decoder.decode(Contents.self, from: data)
        } catch {
            throw .credentials("\(url.path) is not a credentials file")
        }
    }

    private func write(_ data: Data) throws(AccountsError) {
        let directory = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .credentials("\(directory.path): \(error.localizedDescription)")
        }
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max))")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { throw .credentials("\(temporary.path): \(String(cString: strerror(errno)))") }
        let written = data.withUnsafeBytes { buffer -> Int in
            guard let base = buffer.baseAddress else { return 0 }
            var offset = 0
            while offset < buffer.count {
                let count = posixWrite(descriptor, base + offset, buffer.count - offset)
                if count <= 0 { return offset }
                offset += count
            }
            return offset
        }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written == data.count, synced, rename(temporary.path, url.path) == 0 else {
            unlink(temporary.path)
            throw .credentials("\(url.path): \(String(cString: strerror(errno)))")
        }
    }

    /// Runs `body` holding an exclusive lock on the file across processes (`flock` on a `.lock`
    /// file beside it, 0600): two processes refreshing one login at once would present the same
    /// refresh token twice, and a server with reuse detection logs the user out for it.
    /// Waits up to `timeout` for another holder.
    public func withLock<T>(timeout: Duration = .seconds(30), _ body: () async throws -> T) async throws -> T {
        let directory = url.deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let lockPath = url.path + ".lock"
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw AccountsError.credentials("\(lockPath): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        let deadline = ContinuousClock.now + timeout
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                throw AccountsError.credentials("\(lockPath): \(String(cString: strerror(errno)))")
            }
            guard ContinuousClock.now < deadline else { throw AccountsError.credentials("\(lockPath): another process holds it") }
            try await Task.sleep(for: .milliseconds(20))
        }
        defer { flock(descriptor, LOCK_UN) }
        return try await body()
    }

    /// Servers are keyed by scheme, host and port (a trailing slash or path does not matter).
    static func key(_ server: URL) -> String {
        let scheme = server.scheme?.lowercased() ?? "http"
        let host = server.host?.lowercased() ?? ""
        let port = server.port.map { ":\($0)" } ?? ""
        return "\(scheme)://\(host)\(port)"
    }
}

/// `write(2)`, named apart from ``CredentialsFile``'s own `write(_:)`.
private func posixWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
