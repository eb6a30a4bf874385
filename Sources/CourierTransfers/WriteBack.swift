import Courier
import CourierTransportCore
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Asks the kernel to start writing a download's newest bytes to disk — on a thread of its own,
/// not the one writing the file.
///
/// `sync_file_range(SYNC_FILE_RANGE_WRITE)` does not wait for the disk, but the call itself does
/// the file system's work of mapping the range and submitting it (ext4's `ext4_writepages`). Made
/// by the writing task, that work held up the next write: measured with perf on a 1 GiB download
/// over loopback, 18% of the writer's samples. Here it overlaps the writes.
///
/// The requests of every download go through one serial queue. ``drain()`` waits for those made
/// so far: a file's descriptor is drained before it is truncated, synced or closed, so a request
/// never reaches a descriptor number that meanwhile names another file. Where the call is missing
/// (not Linux, or an old C library), nothing is asked and the final `fsync` does all the work.
enum WriteBack {
    private static let queue = DispatchQueue(label: "courier.download.write-back")

    /// Asks for `count` bytes of `descriptor` from `offset` on to be written back, soon.
    static func request(_ descriptor: Int32, from offset: Int64, count: Int64) {
        #if os(Linux)
        guard let syncFileRange else { return }
        queue.async { _ = syncFileRange(descriptor, offset, count, syncFileRangeWrite) }
        #endif
    }

    /// Returns when every request made so far has been made of the kernel.
    static func drain() {
        #if os(Linux)
        guard syncFileRange != nil else { return }
        queue.sync {}
        #endif
    }

    #if os(Linux)
    /// glibc's `sync_file_range`, which its Swift module does not export (it is a `_GNU_SOURCE`
    /// declaration): looked up once by name; nil where it is missing.
    private static let syncFileRange: (@convention(c) (Int32, Int64, Int64, UInt32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "sync_file_range") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int64, Int64, UInt32) -> Int32).self)
    }()
    /// `SYNC_FILE_RANGE_WRITE`: start writing back, do not wait.
    private static let syncFileRangeWrite: UInt32 = 2
    #endif
}
