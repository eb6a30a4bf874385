import CourierTransportCore
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An outbox's directory on disk: one file per entry, `<id>.entry` (``OutboxEntryFormat``), in
/// queue order by name; `.enqueue.lock` and `.flush.lock` for the advisory locks.
///
/// Every change is a whole file written under a temporary name (`.tmp-<pid>-<random>`), synced,
/// renamed over the entry's name, and the directory synced: after a crash at any instant an
/// entry is its old file or its new one, never half of one, and a temporary file left by a
/// process that is gone is removed when the outbox is next opened or flushed. The functions
/// block (they sync to disk): ``Outbox`` calls them on a thread of its own.
final class OutboxJournal: Sendable {
    /// The directory's path, ending in `/`.
    let directory: String
    let limits: OutboxLimits

    init(directory: URL, limits: OutboxLimits) throws(OutboxError) {
        let path = directory.path
        do { try PrivateDirectory.prepare(path) } catch { throw OutboxError(error) }
        self.directory = path.hasSuffix("/") ? path : path + "/"
        self.limits = limits
        removeStaleTemporaries()
    }

    static let suffix = ".entry"

    func path(of id: String) -> String { directory + id + Self.suffix }

    /// Entry ids in queue order.
    func ids() -> [String] {
        names().compactMap { name -> String? in
            guard name.hasSuffix(Self.suffix) else { return nil }
            let id = String(name.dropLast(Self.suffix.count))
            return OutboxEntryFormat.isID(id) ? id : nil
        }.sorted()
    }

    /// The entry `id` and its body, when its file is whole and well-formed.
    func read(_ id: String) -> (entry: OutboxEntry, body: Data)? {
        guard let data = PrivateFile.read(path(of: id), maxBytes: limits.maxBytes),
            let decoded = OutboxEntryFormat.decode(data), decoded.entry.id == id
        else { return nil }
        return decoded
    }

    /// Writes `entry` with `body` whole in place of its file (or as a new one).
    func write(_ entry: OutboxEntry, body: Data) throws(OutboxError) {
        try write(OutboxEntryFormat.encode(entry, body: body), as: entry.id)
    }

    /// Writes an entry file's `bytes` whole in place of entry `id`'s file.
    private func write(_ bytes: Data, as id: String) throws(OutboxError) {
        let temporary = directory + ".tmp-\(getpid())-\(String(UInt32.random(in: 0...UInt32.max), radix: 16))"
        let failure = PrivateFile.create(bytes, at: temporary, sync: true)
        guard failure == 0 else {
            unlink(temporary)
            throw .journal(path: temporary, errno: failure)
        }
        guard rename(temporary, path(of: id)) == 0 else {
            let code = errno
            unlink(temporary)
            throw .journal(path: path(of: id), errno: code)
        }
        try syncDirectory()
    }

    /// Adds a new entry unless the outbox is full, under the enqueue lock (two processes adding
    /// at once cannot both pass the limit).
    func add(_ entry: OutboxEntry, body: Data) throws(OutboxError) {
        let lock = try FileLock(directory + ".enqueue.lock")
        defer { lock.unlock() }
        lock.wait()
        let (count, bytes) = usage()
        let file = OutboxEntryFormat.encode(entry, body: body)
        guard count + 1 <= limits.maxEntries, bytes + file.count <= limits.maxBytes else { throw .full(entries: count, bytes: bytes) }
        try write(file, as: entry.id)
    }

    /// Removes entry `id` (delivered or dropped); false when it was not there.
    @discardableResult
    func remove(_ id: String) throws(OutboxError) -> Bool {
        guard unlink(path(of: id)) == 0 else {
            if errno == ENOENT { return false }
            throw .journal(path: path(of: id), errno: errno)
        }
        try syncDirectory()
        return true
    }

    /// Renames entry `id`'s file, which cannot be read as an entry, to `<id>.unreadable`: out of
    /// the queue's way, kept for a person to look at (never deleted unseen).
    func setAside(_ id: String) {
        if rename(path(of: id), directory + id + ".unreadable") == 0 { try? syncDirectory() }
    }

    /// The entries and the bytes of their files.
    func usage() -> (entries: Int, bytes: Int) {
        ids().reduce((0, 0)) { total, id in
            let size = Platform.status(atPath: path(of: id), followingLinks: false).map { Int(clamping: $0.size) } ?? 0
            return (total.0 + 1, total.1 + size)
        }
    }

    /// Removes the temporary files of processes that are gone (cut off while writing).
    func removeStaleTemporaries() {
        for name in names() where name.hasPrefix(".tmp-") {
            let parts = name.split(separator: "-")
            guard parts.count == 3, let pid = pid_t(parts[1]) else { continue }
            if pid != getpid(), kill(pid, 0) != 0, errno == ESRCH { unlink(directory + name) }
        }
    }

    private func syncDirectory() throws(OutboxError) {
        let failure = PrivateFile.syncDirectory(directory)
        guard failure == 0 else { throw .journal(path: directory, errno: failure) }
    }

    private func names() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    }
}
