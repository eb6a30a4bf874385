import Courier
import CourierTransportCore
public import Foundation
public import Logging
import Synchronization

/// A ``CacheStorage`` in a directory: one entry file per URL (named by a hash of it) holding the
/// stored variants' header fields and small bodies, and a body file beside it for each body over
/// 16 KiB — so a 304 rewrites only the small entry file. Bounded by bytes (entry and body files)
/// with least-recently-used eviction by last access.
///
/// ```swift
/// let storage = try DiskCacheStorage(directory: URL(fileURLWithPath: "/tmp/courier-cache"), maxBytes: 100 << 20)
/// let client = NetworkClient(configuration: .init(middlewares: [CacheMiddleware(storage: storage)]))
/// ```
///
/// Writes go to a temporary file that is renamed into place, so a crash never leaves half an
/// entry; an entry that cannot be read back whole (truncated, corrupt, another key's, a body file
/// missing or of another length) is a miss and is removed. Several processes may share the
/// directory: each write replaces a whole file, reads see either the old or the new one, a body
/// being served stays readable when another process replaces or evicts its entry, and an entry
/// another process evicted is a miss. Through ``CacheMiddleware``, a body larger than its
/// `maxEntryBytes` is written to a body file as it streams to the caller, never held in memory.
///
/// A 304's new header fields are written soon, off the caller's path (on a thread of the store's
/// own); ``flush()`` waits for those writes. A process that exits without flushing loses only
/// such updates — the entry stays as it was and is validated again — so call it before exiting
/// when the updates matter. A store is not released while writes wait (each holds it).
public final class DiskCacheStorage: CacheStorage, StreamingCacheStorage {
    /// Where the entries live.
    public let directory: URL
    /// The most bytes the entry and body files take before the least recently used are removed.
    public let maxBytes: Int
    /// `directory`'s path, for building entry paths without `URL` (which asks the file system
    /// whether each new component is a folder).
    let directoryPath: String
    private let written = Mutex(0)
    /// The directory's own secret for the HMAC of credentials, shared by every process using it
    /// (a 0600 file in the directory).
    public let credentialKey: Data
    private let logger: Logger
    /// The writes ``storeSoon(_:for:)`` schedules, one at a time, on a thread of their own (their
    /// blocking I/O stays off the caller's path and off the cooperative pool).
    private let writer = SerialWorker(name: "courier.cache.disk.writer")
    /// Writes waiting and under way, per key.
    private let writes = Mutex(Writes())
    private struct Writes {
        /// Variants waiting for the writer, newest per key.
        var waiting: [String: [CachedResponse]] = [:]
        /// Keys whose entry is being written now, by the writer or a caller of ``store(_:for:)``:
        /// one write per key at a time, so an older write never renames its file over a newer
        /// one. Whoever finishes hands what waits for the key to the writer.
        var busy: Set<String> = []
    }
    /// Body files linked to downloads, as checked so far.
    private let linkedBodies = LinkedBodyCheck()
    /// Bodies up to this many bytes stay in the entry file (one read per hit); larger ones get a
    /// file of their own, which a 304 does not rewrite and a hit streams.
    static let inlineBodyBytes = 16 << 10

    /// A store in `directory` (created if missing) holding at most `maxBytes` (100 MiB by default).
    public init(directory: URL, maxBytes: Int = 100 << 20, logger: Logger = Logger(label: "courier.cache.disk")) throws {
        self.directory = directory
        self.directoryPath = directory.path.hasSuffix("/") ? directory.path : directory.path + "/"
        self.maxBytes = maxBytes
        self.logger = logger
        try Self.prepare(directoryPath)
        self.credentialKey = try Self.loadKey(in: directoryPath)
        written.withLock { $0 = Self.scan(directory).reduce(0) { $0 + $1.size } }
    }

    public func variants(for key: String) -> [CachedResponse] {
        if let waiting = writes.withLock({ $0.waiting[key] }) { return waiting }
        let name = DiskEntryFormat.fileName(for: key)
        guard let data = Self.readTouching(directoryPath + name) else { return [] }
        guard let decoded = DiskEntryFormat.decode(data, key: key) else {
            logger.debug("unreadable cache entry removed", metadata: ["cache.file": "\(name)"])
            unlink(directoryPath + name)
            return []
        }
        var variants: [CachedResponse] = []
        variants.reserveCapacity(decoded.count)
        for (variant, body) in decoded {
            guard let (bodyName, length) = body.file else {
                variants.append(variant)
                continue
            }
            var hash: String?
            if case .linked(_, _, let sha256) = body { hash = sha256 }
            guard let file = CachedBodyFile(path: directoryPath + bodyName, length: length, sha256: hash) else {
                logger.debug("cache entry with a missing or damaged body file removed", metadata: ["cache.file": "\(name)"])
                remove(decoded, entry: name)
                return []
            }
            if hash != nil, !linkedBodies.holds(file) {
                logger.debug("cache entry whose downloaded file changed removed", metadata: ["cache.file": "\(name)"])
                remove(decoded, entry: name)
                return []
            }
            var withFile = variant
            withFile.content = .file(file)
            variants.append(withFile)
        }
        return variants
    }

    /// Writes `variants` now, on the caller's thread — or, when the writer is writing the same key
    /// at this moment, hands them to it to write next (``variants(for:)`` answers with them
    /// meanwhile): nobody waits for another's write.
    public func store(_ variants: [CachedResponse], for key: String) {
        let now = writes.withLock { writes -> Bool in
            guard !writes.busy.contains(key) else {
                writes.waiting[key] = variants
                return false
            }
            writes.waiting[key] = nil
            writes.busy.insert(key)
            return true
        }
        guard now else { return }
        write(variants, for: key)
        finished(key)
    }

    /// Stores `variants` soon, on the store's writer thread, off the caller's path — for a 304's
    /// header fields over bodies already stored here. Until then ``variants(for:)`` answers with
    /// them, in this process; another process sees them once written. A process that ends first
    /// loses only the update: the entry stays as it was and is validated again. (Measured on the
    /// ext4 disk here: creating and renaming the entry file took 0.2–1.4 ms, as long as the
    /// whole 304 round trip.)
    func storeSoon(_ variants: [CachedResponse], for key: String) {
        let scheduled = writes.withLock { writes in
            defer { writes.waiting[key] = variants }
            return writes.waiting[key] != nil
        }
        guard !scheduled else { return }  // the write already scheduled takes the newest
        writer.submit { [self] in writeWaiting(key) }
    }

    /// Writes what waits for `key` (on the writer's thread), unless a write of it is under way:
    /// that one's ``finished(_:)`` schedules this again.
    private func writeWaiting(_ key: String) {
        let newest = writes.withLock { writes -> [CachedResponse]? in
            guard !writes.busy.contains(key), let newest = writes.waiting.removeValue(forKey: key) else { return nil }
            writes.busy.insert(key)
            return newest
        }
        guard let newest else { return }
        write(newest, for: key)
        finished(key)
    }

    /// Ends the write of `key` under way; what arrived for the key meanwhile goes to the writer.
    private func finished(_ key: String) {
        let more = writes.withLock { writes in
            writes.busy.remove(key)
            return writes.waiting[key] != nil
        }
        if more { writer.submit { [self] in writeWaiting(key) } }
    }

    /// Returns once every write scheduled by a revalidation (and every store handed to the
    /// writer) is on disk — for a process about to exit, whose waiting updates would otherwise
    /// be lost (harmlessly: their entries are validated again). Waits without blocking a thread.
    public func flush() async {
        while true {
            await writer.idle()
            // What still waits is a key a caller of `store` is writing now: its end hands it over.
            guard writes.withLock({ !$0.waiting.isEmpty }) else { return }
            try? await Task.sleep(for: .milliseconds(1))
        }
    }

    private func write(_ variants: [CachedResponse], for key: String) {
        guard !variants.isEmpty else { return removeNow(key) }
        var bodies: [DiskEntryFormat.Body] = []
        var created: [String] = []
        var total = 0
        for variant in variants {
            guard let body = place(variant, key: key, created: &created) else {
                created.forEach { unlink(directoryPath + $0) }
                return removeNow(key)
            }
            total += body.file?.length ?? 0
            bodies.append(body)
        }
        let data = DiskEntryFormat.encode(variants, bodies: bodies, key: key)
        total += data.count
        let entry = directoryPath + DiskEntryFormat.fileName(for: key)
        guard total <= maxBytes else {
            created.forEach { unlink(directoryPath + $0) }
            return removeNow(key)
        }
        let previous = Self.readTouching(entry).flatMap { DiskEntryFormat.decode($0, key: key) } ?? []
        let temporary = directoryPath + ".tmp-\(UUID().uuidString)"
        guard Self.write(data, to: temporary), rename(temporary, entry) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            created.forEach { unlink(directoryPath + $0) }
            logger.debug("cache entry not written", metadata: ["error": "\(reason)"])
            return
        }
        // Body files the replaced entry named and this one does not are garbage now.
        let kept = Set(bodies.compactMap { $0.file?.name })
        for (_, body) in previous { if let name = body.file?.name, !kept.contains(name) { unlink(directoryPath + name) } }
        let createdBytes = bodies.reduce(0) { sum, body in
            if let (name, length) = body.file, created.contains(name) { sum + length } else { sum }
        }
        recordWritten(data.count + createdBytes)
    }

    /// Removes the entry file `name` and the body files `decoded` names.
    private func remove(_ decoded: [(CachedResponse, DiskEntryFormat.Body)], entry name: String) {
        unlink(directoryPath + name)
        for (_, body) in decoded { if let file = body.file { unlink(directoryPath + file.name) } }
    }

    /// Counts `bytes` more written, evicting when the bound is passed.
    private func recordWritten(_ bytes: Int) {
        let total = written.withLock {
            $0 += bytes
            return $0
        }
        if total > maxBytes { evict() }
    }

    /// Sets the count of bytes written (after a scan).
    func setWritten(_ bytes: Int) {
        written.withLock { $0 = bytes }
    }

    /// Removes `key`'s entry now (as ``store(_:for:)`` stores an empty list).
    public func remove(_ key: String) {
        store([], for: key)
    }

    private func removeNow(_ key: String) {
        let name = DiskEntryFormat.fileName(for: key)
        let decoded = Self.readTouching(directoryPath + name).flatMap { DiskEntryFormat.decode($0, key: key) } ?? []
        remove(decoded, entry: name)
    }

    /// Removes every entry and forgets the writes waiting. A write already under way on another
    /// thread may still land after it, as a ``store(_:for:)`` made just after it would.
    public func removeAll() {
        writes.withLock { $0.waiting.removeAll() }
        for file in Self.scan(directory) { try? FileManager.default.removeItem(at: file.url) }
        written.withLock { $0 = 0 }
    }

    /// Bytes the entry and body files take now (a directory scan).
    public var bytes: Int { Self.scan(directory).reduce(0) { $0 + $1.size } }

    /// The entry file for `key`.
    func url(for key: String) -> URL {
        directory.appendingPathComponent(DiskEntryFormat.fileName(for: key))
    }

    func makeBodyWriter(for key: String) -> CacheBodyWriter? {
        CacheBodyWriter(
            temporaryPath: directoryPath + ".tmp-\(UUID().uuidString)",
            finalPath: directoryPath + DiskEntryFormat.bodyFileName(for: key), limit: maxBytes
        ) { [weak self] length in
            self?.recordWritten(length)
        }
    }

    /// `download`'s file as a body file of `key`'s entry: a hard link to it (the same bytes once
    /// on disk), checked to be of the same inode and length; nil when no link can be made here —
    /// the answer is then not stored, never copied.
    func adopt(_ download: FinishedDownload, key: String) -> CachedBodyFile? {
        guard download.length <= maxBytes else { return nil }
        let name = DiskEntryFormat.bodyFileName(for: key)
        let temporary = directoryPath + ".tmp-\(UUID().uuidString)"
        guard Foundation.link(download.path, temporary) == 0 else {
            logger.debug("downloaded file not linked into the cache: not stored", metadata: ["error": "\(String(cString: strerror(errno)))"])
            return nil
        }
        let descriptor = open(temporary, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0, let status = Platform.status(of: descriptor), status.device == download.device, status.inode == download.inode,
            status.size == Int64(download.length), rename(temporary, directoryPath + name) == 0
        else {
            if descriptor >= 0 { close(descriptor) }
            unlink(temporary)
            return nil
        }
        recordWritten(download.length)
        return CachedBodyFile(path: directoryPath + name, descriptor: descriptor, length: download.length, sha256: download.sha256)
    }

    /// Where `variant`'s body goes in `key`'s entry: inline, the body file it already has in this
    /// directory, or a new body file (its name added to `created`); nil when it cannot be written.
    private func place(_ variant: CachedResponse, key: String, created: inout [String]) -> DiskEntryFormat.Body? {
        switch variant.content {
        case .data(let bytes) where bytes.count <= Self.inlineBodyBytes:
            return .inline(bytes)
        case .data(let bytes):
            let name = DiskEntryFormat.bodyFileName(for: key)
            let temporary = directoryPath + ".tmp-\(UUID().uuidString)"
            guard Self.write(bytes, to: temporary), rename(temporary, directoryPath + name) == 0 else {
                unlink(temporary)
                return nil
            }
            created.append(name)
            return .file(name: name, length: bytes.count)
        case .file(let file):
            let name = String(file.path.dropFirst(directoryPath.count))
            if file.path.hasPrefix(directoryPath), DiskEntryFormat.isBodyFileName(name, key: key) {
                if let sha256 = file.sha256 { return .linked(name: name, length: file.length, sha256: sha256) }
                return .file(name: name, length: file.length)
            }
            // Another store's file (or another key's): copied in, never shared.
            guard let bytes = file.readAll() else { return nil }
            var copy = variant
            copy.content = .data(bytes)
            return place(copy, key: key, created: &created)
        }
    }

    /// Writes `data` to a new file at `path`, readable by the owner only (URLs may carry keys).
    /// No fsync: the rename that follows makes the entry appear whole to every process, and
    /// after a power loss a damaged file fails its checksum and is a miss — a cache may lose
    /// entries, and an fsync per entry cost more than everything else a store does.
    static func write(_ data: some ContiguousBytes, to path: String) -> Bool {
        PrivateFile.create(data, at: path, sync: false) == 0
    }

    /// The bytes of the file at `path`, or nil when it cannot be read whole. Last access is the
    /// file's modification time (what eviction orders by): set to now unless it already names
    /// the last second, so a hot entry costs no extra system call per read.
    static func readTouching(_ path: String) -> Data? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        guard let status = Platform.status(of: descriptor), status.size > 0, status.size < Int.max else { return nil }
        let size = Int(status.size)
        var data = Data(count: size)
        let filled = data.withUnsafeMutableBytes { buffer -> Int in
            guard let base = buffer.baseAddress else { return 0 }
            var done = 0
            while done < size {
                let count = read(descriptor, base + done, size - done)
                if count < 0, errno == EINTR { continue }
                if count <= 0 { break }
                done += count
            }
            return done
        }
        guard filled == size else { return nil }
        let modified = Double(status.modified.seconds)
        if Date().timeIntervalSince1970 - modified >= 1 { futimens(descriptor, nil) }
        return data
    }
}
