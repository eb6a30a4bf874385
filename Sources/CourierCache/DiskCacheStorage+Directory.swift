import Courier
import CourierTransportCore
public import Foundation

extension DiskCacheStorage {
    /// `$XDG_CACHE_HOME/courier/name`, or `~/.cache/courier/name` when `XDG_CACHE_HOME` is unset
    /// or not absolute (as the XDG base directory spec says): where a program keeps a cache
    /// between runs.
    ///
    /// ```swift
    /// let storage = try DiskCacheStorage(directory: DiskCacheStorage.defaultDirectory(named: "hn"))
    /// ```
    public static func defaultDirectory(named name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let base: URL
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            base = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            let home =
                environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
                ?? FileManager.default.homeDirectoryForCurrentUser
            base = home.appendingPathComponent(".cache", isDirectory: true)
        }
        return base.appendingPathComponent("courier", isDirectory: true).appendingPathComponent(name, isDirectory: true)
    }
}

extension DiskCacheStorage {
    /// Why a cache directory is refused.
    public enum DirectoryError: Error, Equatable, CustomStringConvertible {
        /// The directory could not be created or examined (errno).
        case unusable(path: String, errno: Int32)
        /// Another user owns it: entries could be planted or read by them.
        case ownedByAnotherUser(path: String)
        /// Others may write to it: entries could be planted or swapped by anyone.
        case writableByOthers(path: String)
        /// It is a symbolic link or not a directory.
        case notADirectory(path: String)

        public var description: String {
            switch self {
            case .unusable(let path, let code): "cache directory \(path) cannot be used: \(String(cString: strerror(code)))"
            case .ownedByAnotherUser(let path): "cache directory \(path) belongs to another user"
            case .writableByOthers(let path): "cache directory \(path) is writable by others (chmod 700 it)"
            case .notADirectory(let path): "cache path \(path) is not a directory (or is a symbolic link)"
            }
        }
    }

    /// Creates `path` (and its parents) owner-only (0700) if missing; refuses one that is a
    /// symbolic link, owned by another user, or writable by group or others (`PrivateDirectory`).
    static func prepare(_ path: String) throws(DirectoryError) {
        do {
            try PrivateDirectory.prepare(path)
        } catch {
            switch error {
            case .unusable(let path, let code): throw .unusable(path: path, errno: code)
            case .ownedByAnotherUser(let path): throw .ownedByAnotherUser(path: path)
            case .writableByOthers(let path): throw .writableByOthers(path: path)
            case .notADirectory(let path): throw .notADirectory(path: path)
            }
        }
    }

    /// The directory's credential key: read from its `.courier-key` file (0600), or made and
    /// written there once — by whichever process comes first (created exclusively, so two
    /// processes at once end up with the same key).
    static func loadKey(in directoryPath: String) throws(DirectoryError) -> Data {
        let path = directoryPath + ".courier-key"
        for _ in 0..<3 {
            if let data = readKey(path) { return data }
            let temporary = directoryPath + ".courier-key.\(getpid()).\(UInt32.random(in: 0...UInt32.max))"
            let key = CacheCredentials.randomKey()
            guard write(key, to: temporary) else { throw .unusable(path: temporary, errno: errno) }
            // link() fails if the key exists: the first writer wins, everyone reads its key.
            let linked = link(temporary, path) == 0
            unlink(temporary)
            if linked { return key }
        }
        throw .unusable(path: path, errno: errno)
    }

    private static func readKey(_ path: String) -> Data? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = read(descriptor, &bytes, bytes.count)
        return count >= 32 ? Data(bytes[0..<count]) : nil
    }
}
