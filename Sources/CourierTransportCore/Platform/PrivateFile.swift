package import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files only their owner reads (0600): a disk cache's entries, an outbox's journal. Written
/// whole under a new name, read whole within a bound.
package enum PrivateFile {
    /// Writes `data` to a new file at `path` (created exclusively, never through a symbolic
    /// link, 0600), synced to disk before it is closed when `sync` is set. 0, or the errno of
    /// what failed (a file left half-written is the caller's to remove).
    package static func create(_ data: some ContiguousBytes, at path: String, sync: Bool) -> Int32 {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { return errno }
        var length = 0
        let written = data.withUnsafeBytes { buffer -> Int in
            length = buffer.count
            return writeAll(buffer, to: descriptor)
        }
        var failure: Int32 = written == length ? 0 : (errno == 0 ? EIO : errno)
        if failure == 0, sync, fsync(descriptor) != 0 { failure = errno }
        if close(descriptor) != 0, failure == 0 { failure = errno }
        return failure
    }

    /// Writes all of `buffer` to `descriptor` (retrying interrupted writes); the bytes written.
    package static func writeAll(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        var done = 0
        while done < buffer.count {
            let count = write(descriptor, base + done, buffer.count - done)
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
            done += count
        }
        return done
    }

    /// The bytes of the regular file at `path` (not through a symbolic link), or nil when it
    /// cannot be read whole or is larger than `maxBytes`.
    package static func read(_ path: String, maxBytes: Int) -> Data? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        guard let status = Platform.status(of: descriptor), status.isRegularFile, status.size >= 0, status.size <= maxBytes else { return nil }
        let size = Int(status.size)
        var data = Data(count: size)
        let filled = data.withUnsafeMutableBytes { buffer -> Int in
            guard let base = buffer.baseAddress else { return 0 }
            var done = 0
            while done < size {
                let count = Foundation.read(descriptor, base + done, size - done)
                if count < 0, errno == EINTR { continue }
                if count <= 0 { break }
                done += count
            }
            return done
        }
        return filled == size ? data : nil
    }

    /// Syncs the directory at `path`, so the names created, renamed or removed in it last: 0 or errno.
    package static func syncDirectory(_ path: String) -> Int32 {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return errno }
        defer { close(descriptor) }
        return fsync(descriptor) == 0 ? 0 : errno
    }
}
