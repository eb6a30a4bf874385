public import Courier
import CourierTransportCore
public import Foundation

/// A cookie jar in a file: the Netscape `cookies.txt` format, the one curl reads (`-b`) and writes
/// (`-c`) — one cookie per line, seven tab-separated fields: domain (a leading dot and `TRUE` for
/// a domain cookie, the host and `FALSE` for a host-only one; `#HttpOnly_` before it for an
/// `HttpOnly` one), path, `TRUE` for `Secure`, the expiry in Unix seconds (0 for a session
/// cookie), name, value.
///
/// The format has no place for `SameSite` or a creation time: `SameSite` is lost on the way
/// through a file, and lines are written in creation order, so that order (which orders cookies of
/// equal path length) survives.
extension CookieJar {
    /// Adds the cookies in the `cookies.txt` file at `file` (a missing file adds none), and forgets
    /// what changed before: the jar now stands for the file.
    public func load(from file: URL) throws(NetworkError) {
        let text: String
        do {
            text = try String(contentsOf: file, encoding: .utf8)
        } catch CocoaError.fileReadNoSuchFile {
            return
        } catch {
            if !FileManager.default.fileExists(atPath: file.path) { return }
            throw .fileError(.ioFailed(path: file.path, operation: "read", errno: EIO))
        }
        let cookies = Self.parse(text, now: Date())
        withState { state in
            for cookie in cookies {
                state.list.removeAll { Key($0.cookie) == Key(cookie) }
                state.list.append(Entry(cookie: cookie, sequence: state.next))
                state.next += 1
            }
            state.changes.removeAll()
        }
    }

    /// Writes the jar to `file` (0600), merged with what is there now: under a lock (`FILE.lock`),
    /// the file is read again and only what this jar changed since it was loaded (cookies set,
    /// replaced or deleted) is applied to it — two processes sharing a file both keep their
    /// changes, never last writer wins. Written to a temporary file, synced and renamed: a crash
    /// leaves the old file or the new one. Session cookies are written too (expiry 0), as curl does.
    /// Afterwards the jar holds the merged cookies.
    public func save(to file: URL) throws(NetworkError) {
        let path = file.path
        let lock = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard lock >= 0 else { throw .fileError(.ioFailed(path: path + ".lock", operation: "open", errno: errno)) }
        defer { close(lock) }
        guard flock(lock, LOCK_EX) == 0 else { throw .fileError(.ioFailed(path: path + ".lock", operation: "lock", errno: errno)) }
        let now = Date()
        let current = (try? String(contentsOf: file, encoding: .utf8)).map { Self.parse($0, now: now) } ?? []
        let merged: [Cookie] = withState { state in
            var result = current
            for (key, change) in state.changes {
                guard let index = result.firstIndex(where: { Key($0) == key }) else { continue }
                if let change { result[index] = change } else { result.remove(at: index) }
            }
            // New ones in the order this jar stored them.
            let present = Set(result.map(Key.init))
            for entry in state.list.sorted(by: { $0.sequence < $1.sequence }) {
                let key = Key(entry.cookie)
                if case .some(.some) = state.changes[key], !present.contains(key) { result.append(entry.cookie) }
            }
            result.removeAll { $0.expires.map { $0 <= now } ?? false }
            // By creation time; equal times (one response's cookies) keep their order.
            result = result.enumerated().sorted { ($0.element.created, $0.offset) < ($1.element.created, $1.offset) }.map(\.element)
            state.list = result.enumerated().map { Entry(cookie: $0.element, sequence: $0.offset) }
            state.next = result.count
            state.changes.removeAll()
            return result
        }
        try Self.write(Self.format(merged), to: path)
    }

    /// The cookies of a `cookies.txt` text that have not expired by `now`, in file order. The file
    /// keeps no creation time: each gets one a microsecond after the one before, from the Unix
    /// epoch — older than any cookie made now, in the file's order. Malformed lines are skipped.
    static func parse(_ text: String, now: Date) -> [Cookie] {
        var cookies: [Cookie] = []
        for (index, rawLine) in text.split(whereSeparator: \.isNewline).enumerated() {
            var line = Substring(rawLine)
            var httpOnly = false
            if line.hasPrefix("#HttpOnly_") {
                httpOnly = true
                line = line.dropFirst("#HttpOnly_".count)
            } else if line.hasPrefix("#") || line.allSatisfy(\.isWhitespace) {
                continue
            }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 7, let seconds = Int64(fields[4]) else { continue }
            let domainCookie = fields[1] == "TRUE"
            var domain = fields[0].lowercased()
            if domain.hasPrefix(".") { domain.removeFirst() }
            guard !domain.isEmpty, !fields[5].isEmpty else { continue }
            let expires: Date? = seconds == 0 ? nil : Date(timeIntervalSince1970: TimeInterval(seconds))
            if let expires, expires <= now { continue }
            cookies.append(
                Cookie(
                    name: String(fields[5]), value: String(fields[6]), domain: domain, isHostOnly: !domainCookie, path: String(fields[2]),
                    expires: expires, isSecure: fields[3] == "TRUE", isHTTPOnly: httpOnly,
                    created: Date(timeIntervalSince1970: Double(index) * 1e-6)))
        }
        return cookies
    }

    /// `cookies` as a `cookies.txt` text.
    static func format(_ cookies: [Cookie]) -> String {
        var text = "# Netscape HTTP Cookie File\n# Written by Courier. Edit with care: every line is tab-separated.\n\n"
        for cookie in cookies {
            let domain = (cookie.isHTTPOnly ? "#HttpOnly_" : "") + (cookie.isHostOnly ? cookie.domain : "." + cookie.domain)
            let expires = cookie.expires.map { String(Int64($0.timeIntervalSince1970.rounded(.down))) } ?? "0"
            let fields = [
                domain, cookie.isHostOnly ? "FALSE" : "TRUE", cookie.path, cookie.isSecure ? "TRUE" : "FALSE", expires, cookie.name, cookie.value,
            ]
            text += fields.joined(separator: "\t") + "\n"
        }
        return text
    }

    /// `text` to `path` through a temporary file beside it (0600), synced, renamed into place.
    private static func write(_ text: String, to path: String) throws(NetworkError) {
        let temporary = path + ".tmp-\(UUID().uuidString.prefix(8))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw .fileError(.ioFailed(path: path, operation: "create", errno: errno)) }
        let bytes = Array(text.utf8)
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress! + done, bytes.count - done) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                let code = errno
                close(descriptor)
                unlink(temporary)
                throw .fileError(code == ENOSPC ? .diskFull(path: path) : .ioFailed(path: path, operation: "write", errno: code))
            }
            done += count
        }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard synced, rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw .fileError(.ioFailed(path: path, operation: "rename", errno: code))
        }
    }
}
