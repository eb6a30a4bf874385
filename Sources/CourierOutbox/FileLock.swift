import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An advisory lock on a file (`flock`), shared by every process that opens the same path: it
/// is released when unlocked, or when its process ends — a process killed while holding it
/// holds it no longer.
final class FileLock: Sendable {
    private let descriptor: Int32

    /// Opens (creating, 0600) the lock file at `path`; not yet locked.
    init(_ path: String) throws(OutboxError) {
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw .journal(path: path, errno: errno) }
    }

    /// Takes the lock if no one holds it; false at once otherwise.
    func tryLock() -> Bool {
        flock(descriptor, LOCK_EX | LOCK_NB) == 0
    }

    /// Takes the lock, waiting for whoever holds it (blocks the thread: not for async code).
    func wait() {
        while flock(descriptor, LOCK_EX) != 0, errno == EINTR {}
    }

    /// Takes the lock, polling every `interval` without blocking a thread; throws when the task
    /// is cancelled first.
    func lock(polling interval: Duration = .milliseconds(20)) async throws(CancellationError) {
        while !tryLock() {
            do { try await Task.sleep(for: interval) } catch { throw CancellationError() }
        }
    }

    /// Releases the lock and closes the file.
    func unlock() {
        close(descriptor)
    }
}
