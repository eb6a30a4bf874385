import Courier
import CourierTransportCore
import Foundation
import Synchronization

/// Whether a body file that is a hard link to a downloaded file still holds the bytes the cache
/// stored: its owner may have changed the file since. Checked by size (the store opens it only at
/// its recorded length) and by SHA-256 — once per process for as long as the inode is unchanged:
/// its change time (`st_ctime`, which every write moves and no one can set back) and size are
/// remembered with the verdict, so a hot entry is not hashed on every hit.
final class LinkedBodyCheck: Sendable {
    /// What identifies one state of a file's bytes.
    struct Identity: Hashable, Sendable {
        let device: UInt64
        let inode: UInt64
        let size: Int64
        let changed: FileStatus.Time
        let modified: FileStatus.Time

        init(_ status: FileStatus) {
            device = status.device
            inode = status.inode
            size = status.size
            changed = status.changed
            modified = status.modified
        }
    }

    /// Files already hashed, with the hash they had: at most `capacity` remembered.
    private let verified = Mutex<[Identity: String]>([:])
    private static let capacity = 1024

    /// Whether `file` (open, at its recorded length) still has the SHA-256 it was stored with.
    func holds(_ file: CachedBodyFile) -> Bool {
        guard let expected = file.sha256, let info = file.status() else { return false }
        let identity = Identity(info)
        guard identity.size == Int64(file.length) else { return false }
        if verified.withLock({ $0[identity] }) == expected { return true }
        guard let actual = Self.sha256(of: file), actual == expected else { return false }
        // Hashed as it was when the hash began: a write meanwhile moved its change time.
        guard let after = file.status(), Identity(after) == identity else { return false }
        verified.withLock { known in
            if known.count >= Self.capacity { known.removeAll() }
            known[identity] = actual
        }
        return true
    }

    /// The file's SHA-256, read in chunks of 1 MiB; nil when it cannot be read whole.
    static func sha256(of file: CachedBodyFile) -> String? {
        var hasher = SHA256Hasher()
        var offset = 0
        let step = 1 << 20
        while offset < file.length {
            let count = min(step, file.length - offset)
            guard let chunk = try? file.read(at: offset, count: count) else { return nil }
            hasher.update(chunk)
            offset += count
        }
        return hasher.finalize()
    }
}
