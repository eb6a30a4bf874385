import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Makes the accounts database file owner-only (0600) from the moment it exists: it holds e-mail
/// addresses and password hashes.
///
/// SQLite would create the file 0644 (less the umask), and a chmod after leaves a window in which
/// another user can open it and keep reading through that descriptor. So the file is created here,
/// empty (SQLite takes an empty file for an empty database), with `O_CREAT | O_EXCL` and mode 0600;
/// SQLite then opens the existing file, and gives its `-wal` and `-shm` files the same mode. Not
/// `umask`: that is per process, and other threads (a test run's other servers) create files too.
enum PrivateDatabaseFile {
    /// Why the file could not be prepared.
    struct Failure: Error, CustomStringConvertible {
        let path: String
        let code: Int32
        var description: String { "cannot create the accounts database \(path): \(String(cString: strerror(code)))" }
    }

    /// Creates the folder of `file` (the last level 0700) and `file` (0600) when they do not exist.
    /// A file from before this rule that others can read is tightened; it was created elsewhere.
    static func prepare(_ file: URL) throws {
        let directory = file.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory.deletingLastPathComponent(), withIntermediateDirectories: true)
        if mkdir(directory.path, 0o700) != 0, errno != EEXIST { throw Failure(path: directory.path, code: errno) }
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if descriptor >= 0 {
            close(descriptor)
            return
        }
        guard errno == EEXIST else { throw Failure(path: file.path, code: errno) }
        var status = stat()
        if stat(file.path, &status) == 0, status.st_mode & 0o077 != 0 {
            _ = chmod(file.path, status.st_mode & 0o700)
        }
    }
}
