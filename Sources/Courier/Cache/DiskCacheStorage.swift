import Foundation
import Logging
import Synchronization

/// A ``CacheStorage`` in a directory: one file per URL (named by a hash of it) holding the
/// stored variants' header fields and bodies, bounded by bytes with least-recently-used eviction
/// by last access.
///
/// ```swift
/// let storage = try DiskCacheStorage(directory: URL(fileURLWithPath: "/tmp/courier-cache"), maxBytes: 100 << 20)
/// let client = NetworkClient(configuration: .init(middlewares: [CacheMiddleware(storage: storage)]))
/// ```
///
/// Writes go to a temporary file that is renamed over the entry, so a crash never leaves half an
/// entry; an entry that cannot be read back whole (truncated, corrupt, another key's) is a miss
/// and is removed. Several processes may share the directory: each write replaces a whole file,
/// reads see either the old or the new one, and an entry another process evicted is a miss.
public final class DiskCacheStorage: CacheStorage {
    /// Where the entries live.
    public let directory: URL
    /// The most bytes the entry files take before the least recently used are removed.
    public let maxBytes: Int
    /// `directory`'s path, for building entry paths without `URL` (which asks the file system
    /// whether each new component is a folder).
    private let directoryPath: String
    private let written = Mutex(0)
    private let logger: Logger

    /// A store in `directory` (created if missing) holding at most `maxBytes` (100 MiB by default).
    public init(directory: URL, maxBytes: Int = 100 << 20, logger: Logger = Logger(label: "courier.cache.disk")) throws {
        self.directory = directory
        self.directoryPath = directory.path.hasSuffix("/") ? directory.path : directory.path + "/"
        self.maxBytes = maxBytes
        self.logger = logger
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        written.withLock { $0 = Self.scan(directory).reduce(0) { $0 + $1.size } }
    }

    public func variants(for key: String) -> [CachedResponse] {
        let name = DiskEntryFormat.fileName(for: key)
        guard let data = Self.readTouching(directoryPath + name) else { return [] }
        guard let variants = DiskEntryFormat.decode(data, key: key) else {
            logger.debug("unreadable cache entry removed", metadata: ["cache.file": "\(name)"])
            unlink(directoryPath + name)
            return []
        }
        return variants
    }

    public func store(_ variants: [CachedResponse], for key: String) {
        guard !variants.isEmpty else { return remove(key) }
        let data = DiskEntryFormat.encode(variants, key: key)
        guard data.count <= maxBytes else { return remove(key) }
        let temporary = directoryPath + ".tmp-\(UUID().uuidString)"
        guard Self.write(data, to: temporary), rename(temporary, directoryPath + DiskEntryFormat.fileName(for: key)) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            logger.debug("cache entry not written", metadata: ["error": "\(reason)"])
            return
        }
        let total = written.withLock { $0 += data.count; return $0 }
        if total > maxBytes { evict() }
    }

    public func remove(_ key: String) {
        unlink(directoryPath + DiskEntryFormat.fileName(for: key))
    }

    public func removeAll() {
        for file in Self.scan(directory) { try? FileManager.default.removeItem(at: file.url) }
        written.withLock { $0 = 0 }
    }

    /// Bytes the entry files take now (a directory scan).
    public var bytes: Int { Self.scan(directory).reduce(0) { $0 + $1.size } }

    /// The file for `key`.
    func url(for key: String) -> URL {
        directory.appendingPathComponent(DiskEntryFormat.fileName(for: key))
    }

    /// Removes the least recently used entries until the files take at most 80% of the bound
    /// (the margin keeps a full cache from scanning on every write).
    private func evict() {
        var files = Self.scan(directory)
        var total = files.reduce(0) { $0 + $1.size }
        files.sort { $0.accessed < $1.accessed }
        let target = maxBytes / 10 * 8
        for file in files where total > target {
            if (try? FileManager.default.removeItem(at: file.url)) != nil { total -= file.size }
        }
        written.withLock { $0 = total }
    }

    /// Writes `data` to a new file at `path`, readable by the owner only (URLs may carry keys).
    /// No fsync: the rename that follows makes the entry appear whole to every process, and
    /// after a power loss a damaged file fails its checksum and is a miss — a cache may lose
    /// entries, and an fsync per entry cost more than everything else a store does.
    static func write(_ data: Data, to path: String) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        let written = data.withUnsafeBytes { buffer -> Int in
            guard let base = buffer.baseAddress else { return 0 }
            var done = 0
            while done < buffer.count {
                let count = Foundation.write(descriptor, base + done, buffer.count - done)
                if count < 0, errno == EINTR { continue }
                if count <= 0 { break }
                done += count
            }
            return done
        }
        return close(descriptor) == 0 && written == data.count
    }

    /// The bytes of the file at `path`, or nil when it cannot be read whole. Last access is the
    /// file's modification time (what eviction orders by): set to now unless it already names
    /// the last second, so a hot entry costs no extra system call per read.
    static func readTouching(_ path: String) -> Data? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_size > 0, info.st_size < Int.max else { return nil }
        let size = Int(info.st_size)
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
        #if canImport(Darwin)
        let modified = Double(info.st_mtimespec.tv_sec)
        #else
        let modified = Double(info.st_mtim.tv_sec)
        #endif
        if Date().timeIntervalSince1970 - modified >= 1 { futimens(descriptor, nil) }
        return data
    }

    /// The entry files with their sizes and last access.
    private static func scan(_ directory: URL) -> [(url: URL, size: Int, accessed: Date)] {
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey]
        let urls = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: keys)) ?? []
        return urls.compactMap { url in
            guard url.pathExtension == DiskEntryFormat.fileExtension, let values = try? url.resourceValues(forKeys: Set(keys)) else { return nil }
            return (url, values.fileSize ?? 0, values.contentModificationDate ?? .distantPast)
        }
    }
}
