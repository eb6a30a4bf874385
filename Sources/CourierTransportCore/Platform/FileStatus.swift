import Foundation

#if canImport(Glibc)
// `struct stat` comes from glibc's headers, which CoreFoundation and CDispatch include too: under
// MemberImportVisibility the compiler names whichever of them it built first as the defining
// module (it varies between builds), so all of them are imported — here only: every other file
// reads a file's status through `FileStatus`.
import CDispatch
import CoreFoundation
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `stat(2)` says of a file, under the same names on every system (Darwin and glibc name
/// the times differently).
package struct FileStatus: Sendable, Hashable {
    /// A time as `stat` gives it: seconds and nanoseconds since 1970.
    package struct Time: Sendable, Hashable {
        package var seconds: Int64
        package var nanoseconds: Int64
    }

    package var device: UInt64
    package var inode: UInt64
    package var size: Int64
    /// Hard links to the file (0 once it is unlinked).
    package var links: UInt64
    /// The file's type and permission bits (`st_mode`).
    package var mode: UInt32
    /// The owner's user id.
    package var owner: UInt32
    /// When the file's inode last changed (every write moves it; no one can set it back).
    package var changed: Time
    /// When the file's bytes last changed (or were set to, as `futimens` does).
    package var modified: Time

    package var isRegularFile: Bool { mode & Self.typeMask == 0o100000 }  // S_IFREG
    package var isDirectory: Bool { mode & Self.typeMask == 0o040000 }  // S_IFDIR
    /// `S_IFMT`, the same on Linux and Darwin (spelled out: the C name is ambiguous here, where
    /// three modules declare it).
    private static let typeMask: UInt32 = 0o170000

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        links = UInt64(info.st_nlink)
        mode = UInt32(info.st_mode)
        owner = UInt32(info.st_uid)
        (changed, modified) = Platform.times(info)
    }
}

extension Platform {
    /// The status of the open file `descriptor` (`fstat`); nil when it cannot be read.
    package static func status(of descriptor: Int32) -> FileStatus? {
        var info = stat()
        return fstat(descriptor, &info) == 0 ? FileStatus(info) : nil
    }

    /// The status of the file at `path`, following a symbolic link (`stat`) or not (`lstat`);
    /// nil when it cannot be read (`errno` says why).
    package static func status(atPath path: String, followingLinks: Bool = true) -> FileStatus? {
        var info = stat()
        return (followingLinks ? stat(path, &info) : lstat(path, &info)) == 0 ? FileStatus(info) : nil
    }

    /// A status's change and modification times: the one place their names differ.
    static func times(_ info: stat) -> (changed: FileStatus.Time, modified: FileStatus.Time) {
        #if canImport(Darwin)
        (
            FileStatus.Time(seconds: Int64(info.st_ctimespec.tv_sec), nanoseconds: Int64(info.st_ctimespec.tv_nsec)),
            FileStatus.Time(seconds: Int64(info.st_mtimespec.tv_sec), nanoseconds: Int64(info.st_mtimespec.tv_nsec))
        )
        #else
        (
            FileStatus.Time(seconds: Int64(info.st_ctim.tv_sec), nanoseconds: Int64(info.st_ctim.tv_nsec)),
            FileStatus.Time(seconds: Int64(info.st_mtim.tv_sec), nanoseconds: Int64(info.st_mtim.tv_nsec))
        )
        #endif
    }
}
