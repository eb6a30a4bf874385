import Courier
import CourierTransportCore
import Foundation

/// The files of one download beside its target `FILE`: the body so far in `FILE.courier-partial`
/// and what resuming needs in `FILE.courier-resume` (``DownloadState``), both 0600.
///
/// Opening takes an exclusive `flock` on the partial file, without waiting: a second download to
/// the same target — in this process or another — fails at once with
/// `FileFailure/inUse(path:)` and never touches the first one's bytes. The lock goes with the
/// descriptor, so a killed process leaves no stale lock. ``finish()`` renames the body over
/// `FILE` in one step: `FILE` is either the old file or the whole new one — and, with
/// `DownloadOptions/Durability/synced`, the body is on disk before the rename, so it holds after
/// a power loss too.
final class PartialDownload {
    let target: String
    let partialPath: String
    let statePath: String
    let durability: DownloadOptions.Durability
    private let descriptor: Int32
    /// Requests to start writing the body back as it grows (only when it is to be synced).
    private var writeBack: WriteBack?
    /// Bytes in the partial file (kept in step with every write and truncation).
    private(set) var size: Int64

    static let partialSuffix = ".courier-partial"
    static let stateSuffix = ".courier-resume"

    private init(target: String, descriptor: Int32, size: Int64, durability: DownloadOptions.Durability) {
        self.target = target
        self.partialPath = target + Self.partialSuffix
        self.statePath = target + Self.stateSuffix
        self.descriptor = descriptor
        self.size = size
        self.durability = durability
        if durability == .synced { writeBack = WriteBack(of: descriptor) }
    }

    /// Opens (or creates) the partial file of `target` and locks it.
    ///
    /// The lock is taken on the file, but other downloads find it by its path, which a finished
    /// download renames away and a failed one unlinks: after `flock`, the path must still name the
    /// locked file, else another download changed it meanwhile and the path is opened again.
    static func lock(target: String, durability: DownloadOptions.Durability) throws(NetworkError) -> PartialDownload {
        let path = target + partialSuffix
        for _ in 0..<8 {
            let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
            guard descriptor >= 0 else { throw Self.failure(path, "open") }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
                let code = errno
                _ = close(descriptor)
                if code == EWOULDBLOCK { throw .fileError(.inUse(path: target)) }
                throw .fileError(.ioFailed(path: path, operation: "lock", errno: code))
            }
            guard let locked = Platform.status(of: descriptor) else {
                _ = close(descriptor)
                throw Self.failure(path, "stat")
            }
            guard let named = Platform.status(atPath: path, followingLinks: false), named.device == locked.device,
                named.inode == locked.inode, locked.links > 0
            else {
                _ = close(descriptor)
                continue
            }
            _ = fchmod(descriptor, 0o600)
            return PartialDownload(target: target, descriptor: descriptor, size: locked.size, durability: durability)
        }
        throw .fileError(.inUse(path: target))
    }

    /// With no partial bytes and no state, the target file itself becomes the partial (`--continue`
    /// with a FILE of its own): renamed over the locked empty partial, then locked again. Returns
    /// the partial to use and whether it is the adopted target (to be put back if nothing comes of it).
    func adoptingTarget() throws(NetworkError) -> (PartialDownload, adopted: Bool) {
        guard size == 0, !FileManager.default.fileExists(atPath: statePath), FileManager.default.fileExists(atPath: target) else {
            return (self, false)
        }
        guard rename(target, partialPath) == 0 else { throw Self.failure(target, "rename") }
        release()
        do {
            return (try Self.lock(target: target, durability: durability), true)
        } catch {
            // Another download took the path in between: it owns those bytes now.
            throw error
        }
    }

    /// Puts an adopted target back under its name (nothing was fetched into it).
    func restoreAdopted() {
        if !FileManager.default.fileExists(atPath: target) { _ = rename(partialPath, target) }
    }

    /// Closes the partial file (releasing the lock); the files stay for a later resume.
    ///
    /// The lock is released first, explicitly: ``WriteBack``'s duplicate of the descriptor shares
    /// it, and is closed only after its last request.
    func release() {
        _ = flock(descriptor, LOCK_UN)
        writeBack = nil
        _ = close(descriptor)
    }

    /// The saved state, when there is one this code can read.
    func readState() -> DownloadState? {
        guard let data = FileManager.default.contents(atPath: statePath), data.count < 64 * 1024,
            let state = try? JSONDecoder().decode(DownloadState.self, from: data), state.format == 1
        else { return nil }
        return state
    }

    /// Writes `state` beside the partial: a temporary file, synced (unless the download's bytes
    /// are left to the OS too), renamed into place.
    func writeState(_ state: DownloadState) throws(NetworkError) {
        let data: Data
        do { data = try JSONEncoder().encode(state) } catch { throw .encodingError }
        let temporary = statePath + ".tmp"
        _ = unlink(temporary)
        let file = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard file >= 0 else { throw Self.failure(temporary, "open") }
        let written = data.withUnsafeBytes { Self.writeAll(file, $0, at: 0) }
        let synced = written && (durability == .leftToOS || fsync(file) == 0)
        let failure = synced ? nil : Self.failure(temporary, written ? "sync" : "write")
        _ = close(file)
        if let failure {
            _ = unlink(temporary)
            throw failure
        }
        guard rename(temporary, statePath) == 0 else { throw Self.failure(statePath, "rename") }
    }

    /// Empties the partial file and forgets its state: the download starts over.
    func reset() throws(NetworkError) {
        // The bytes first, then their state: killed in between, no old bytes are left without the
        // state that says which version they are (they would be taken as the new one's beginning).
        guard ftruncate(descriptor, 0) == 0 else { throw Self.failure(partialPath, "truncate") }
        size = 0
        writtenBack = 0
        _ = unlink(statePath)
    }

    /// Appends `bytes` to the partial file.
    ///
    /// When the body is to be synced, every 4 MiB the kernel is asked to start writing the new
    /// bytes to disk (``WriteBack``, on Linux: `sync_file_range`, without waiting, on a thread of its
    /// own), so the final `fsync` has little left to do: measured on ext4, a 1 GiB download's final
    /// sync went from about 240–360 ms to a few.
    ///
    /// The bytes are written as the transport hands them over (64 KiB reads from AsyncHTTPClient),
    /// not gathered into bigger writes: measured on ext4 in a VM (1 GiB over loopback), 256 KiB and
    /// 1 MiB writes took 2–3× as long, the page cache then backing the file with large folios
    /// whose first touch was the most expensive part of the write (`copy_folio_from_iter_atomic`,
    /// half of all samples with perf); the system calls saved were worth far less.
    func append(_ bytes: ArraySlice<UInt8>) throws(NetworkError) {
        let descriptor = self.descriptor
        let offset = size
        let written = bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let piece = min(raw.count - done, Self.writeSize)
                guard Self.writeAll(descriptor, UnsafeRawBufferPointer(rebasing: raw[done..<done + piece]), at: offset + Int64(done)) else {
                    return false
                }
                done += piece
            }
            return true
        }
        guard written else { throw Self.failure(partialPath, "write") }
        size += Int64(bytes.count)
        if size - writtenBack >= Self.writeBackStep, let writeBack {
            writeBack.request(from: writtenBack, count: size - writtenBack)
            writtenBack = size
        }
    }

    /// The largest single write.
    private static let writeSize = 64 * 1024

    /// Where the last write-back request ended.
    private var writtenBack: Int64 = 0
    /// Measured (1 GiB over loopback, ext4 in a VM): 2–4 MiB steps 5–10% faster than 16 or 64 MiB
    /// (the write-back keeps pace with the writes), 1 MiB slower again, none 15–20% slower.
    private static let writeBackStep: Int64 = 4 << 20

    /// The SHA-256 of the partial file's bytes, lowercase hex, read in 1 MiB pieces.
    func sha256() throws(NetworkError) -> String {
        var hasher = SHA256Hasher()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var offset: off_t = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, $0.count, offset) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Self.failure(partialPath, "read")
            }
            if count == 0 { break }
            hasher.update(buffer[..<count])
            offset += off_t(count)
        }
        return hasher.finalize()
    }

    /// The partial file's device and inode (which stay its own after ``finish()`` renames it).
    func identity() -> (device: UInt64, inode: UInt64)? {
        guard let status = Platform.status(of: descriptor) else { return nil }
        return (status.device, status.inode)
    }

    /// Gives the body the permissions a new file gets (0666 less the umask, as curl's files
    /// have; the partial was 0600), renames it over the target and forgets the state. Synced
    /// (``DownloadOptions/Durability/synced``): the body is synced before the rename and the
    /// directory after it; left to the OS, neither.
    func finish() throws(NetworkError) {
        _ = fchmod(descriptor, 0o666 & ~Self.umaskValue)
        let synced = durability == .synced
        if synced { guard fsync(descriptor) == 0 else { throw Self.failure(partialPath, "sync") } }
        guard rename(partialPath, target) == 0 else { throw Self.failure(target, "rename") }
        _ = unlink(statePath)
        guard synced else { return }
        let directory = (target as NSString).deletingLastPathComponent
        let handle = open(directory.isEmpty ? "." : directory, O_RDONLY | O_CLOEXEC)
        if handle >= 0 {
            _ = fsync(handle)
            _ = close(handle)
        }
    }

    /// The process's umask, read without changing it (`umask(2)` can only set it, and setting it
    /// back races other threads creating files): Linux reports it in `/proc/self/status`; 022 elsewhere.
    static let umaskValue: mode_t = {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }),
            let value = mode_t(line.dropFirst(6).trimmingCharacters(in: .whitespaces), radix: 8)
        else { return 0o022 }
        return value & 0o777
    }()

    /// Removes the partial file and its state (a body that can never become the file).
    func discard() {
        _ = unlink(partialPath)
        _ = unlink(statePath)
    }

    /// Writes all of `raw` at `offset`, retrying after interruptions; false (with `errno` set) on failure.
    private static func writeAll(_ file: Int32, _ raw: UnsafeRawBufferPointer, at offset: Int64) -> Bool {
        var done = 0
        while done < raw.count {
            let written = pwrite(file, raw.baseAddress! + done, raw.count - done, off_t(offset) + off_t(done))
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            done += written
        }
        return true
    }

    /// The error for a failed system call on `path`: a full disk or quota is `FileFailure/diskFull(path:)`.
    private static func failure(_ path: String, _ operation: String) -> NetworkError {
        let code = errno
        if code == ENOSPC || code == EDQUOT { return .fileError(.diskFull(path: path)) }
        return .fileError(.ioFailed(path: path, operation: operation, errno: code))
    }
}
