import Foundation
import Synchronization

/// Between a ``NetworkClient/download(_:to:options:progress:)`` and a ``CacheMiddleware`` over a
/// ``DiskCacheStorage``: the cache does not copy a downloaded body as it streams (the download
/// writes it to its own file anyway); it offers to keep the answer, and once the download's file
/// is whole, in place and hashed, the store hard-links it into its directory — the same bytes
/// once on disk. Where no link can be made (another device, a file system without hard links),
/// the answer is simply not stored.
///
/// The hand-off is found by the task the download runs in, like ``CollectedBodyHandOff``.
final class DownloadCacheHandOff: Sendable {
    /// What the store does with a finished download.
    typealias Store = @Sendable (FinishedDownload) -> Void

    private let pending = Mutex<Store?>(nil)

    /// The hand-off of the download this task is making, if any.
    @TaskLocal static var current: DownloadCacheHandOff?

    /// The cache would keep the answer now being downloaded (replacing an earlier offer: the
    /// download started over).
    func offer(_ store: @escaping Store) {
        pending.withLock { $0 = store }
    }

    /// Whether the cache waits for the finished file (so the download hashes what it writes).
    var isPending: Bool { pending.withLock { $0 != nil } }

    /// The download is in place: the cache links it (once).
    func complete(_ download: FinishedDownload) {
        let store = pending.withLock { pending in
            defer { pending = nil }
            return pending
        }
        store?(download)
    }
}

/// A downloaded file in place: where, which inode (so a link is known to be of these bytes, not
/// of whatever has the name now), how long, and its SHA-256.
struct FinishedDownload: Sendable {
    let path: String
    let device: UInt64
    let inode: UInt64
    let length: Int
    /// 64 lowercase hex digits.
    let sha256: String
}
