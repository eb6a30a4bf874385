import Synchronization

/// Between a download to a file and a disk cache among the client's middlewares: the cache does
/// not copy a downloaded body as it streams (the download writes it to its own file anyway); it
/// offers to keep the answer, and once the download's file is whole, in place and hashed, the
/// store hard-links it into its directory — the same bytes once on disk. Where no link can be
/// made (another device, a file system without hard links), the answer is simply not stored.
///
/// One per download, in its ``CallContext/downloadOffer``.
package final class DownloadStoreOffer: Sendable {
    /// What the store does with a finished download.
    package typealias Store = @Sendable (FinishedDownload) -> Void

    private let pending = Mutex<Store?>(nil)

    package init() {}

    /// The cache would keep the answer now being downloaded (replacing an earlier offer: the
    /// download started over).
    package func offer(_ store: @escaping Store) {
        pending.withLock { $0 = store }
    }

    /// Whether the cache waits for the finished file (so the download hashes what it writes).
    package var isPending: Bool { pending.withLock { $0 != nil } }

    /// The download is in place: the cache links it (once).
    package func complete(_ download: FinishedDownload) {
        let store = pending.withLock { pending in
            defer { pending = nil }
            return pending
        }
        store?(download)
    }
}

/// A downloaded file in place: where, which inode (so a link is known to be of these bytes, not
/// of whatever has the name now), how long, and its SHA-256.
package struct FinishedDownload: Sendable {
    package let path: String
    package let device: UInt64
    package let inode: UInt64
    package let length: Int
    /// 64 lowercase hex digits.
    package let sha256: String

    package init(path: String, device: UInt64, inode: UInt64, length: Int, sha256: String) {
        self.path = path
        self.device = device
        self.inode = inode
        self.length = length
        self.sha256 = sha256
    }
}
