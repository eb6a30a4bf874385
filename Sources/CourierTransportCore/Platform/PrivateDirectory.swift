import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A directory only its owner may use — a disk cache's, an outbox's: created owner-only (0700)
/// when missing, refused when it is a symbolic link, not a directory, another user's, or
/// writable by group or others (anyone could plant, swap or read entries there).
package enum PrivateDirectory {
    /// Why a directory is refused.
    package enum Refusal: Error, Equatable {
        /// It could not be created or examined (errno).
        case unusable(path: String, errno: Int32)
        /// Another user owns it.
        case ownedByAnotherUser(path: String)
        /// Group or others may write to it.
        case writableByOthers(path: String)
        /// It is a symbolic link or not a directory.
        case notADirectory(path: String)
    }

    /// Creates `path` (and its parents) owner-only if missing; throws when it may not be used.
    package static func prepare(_ path: String) throws(Refusal) {
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        var found = Platform.status(atPath: trimmed, followingLinks: false)
        if found == nil {
            guard errno == ENOENT else { throw .unusable(path: trimmed, errno: errno) }
            let parent = (trimmed as NSString).deletingLastPathComponent
            if !parent.isEmpty, parent != trimmed, Platform.status(atPath: parent, followingLinks: false) == nil {
                try? FileManager.default.createDirectory(
                    atPath: parent, withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700])
            }
            // Created 0700 from the start: no moment when it is open to others.
            if mkdir(trimmed, 0o700) != 0, errno != EEXIST { throw .unusable(path: trimmed, errno: errno) }
            found = Platform.status(atPath: trimmed, followingLinks: false)
        }
        guard let status = found else { throw .unusable(path: trimmed, errno: errno) }
        guard status.isDirectory else { throw .notADirectory(path: trimmed) }
        guard status.owner == geteuid() else { throw .ownedByAnotherUser(path: trimmed) }
        guard status.mode & 0o022 == 0 else { throw .writableByOthers(path: trimmed) }
    }
}
