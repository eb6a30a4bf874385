import CourierTransportCore
import Foundation

/// One download's requests to the kernel to start writing its newest bytes to disk — made on a
/// thread of their own (``SerialWorker``), not by the task writing the file.
///
/// `sync_file_range(SYNC_FILE_RANGE_WRITE)` does not wait for the disk, but the call itself does
/// the file system's work of mapping the range and submitting it (ext4's `ext4_writepages`). Made
/// by the writing task, that work held up the next write: measured with perf on a 1 GiB download
/// over loopback, 18% of the writer's samples. Here it overlaps the writes.
///
/// The requests go to a duplicate of the file's descriptor that only they use, closed after the
/// last of them: nobody waits for them, and a request never reaches a descriptor number that
/// meanwhile names another file. (A request for bytes a truncation removed, or one that runs
/// beside the final `fsync`, does no harm.) Where the system has no such call, nothing is asked
/// and the final `fsync` does all the work.
final class WriteBack: Sendable {
    private static let worker = SerialWorker(name: "courier.download.write-back")
    private let descriptor: Int32

    /// Write-back for `file`'s bytes; nil when its descriptor cannot be duplicated.
    init?(of file: Int32) {
        let copy = fcntl(file, F_DUPFD_CLOEXEC, 0)
        guard copy >= 0 else { return nil }
        descriptor = copy
    }

    /// Asks for `count` bytes from `offset` on to be written back, soon.
    func request(from offset: Int64, count: Int64) {
        let descriptor = self.descriptor
        Self.worker.submit { Platform.startWriteBack(descriptor, from: offset, count: count) }
    }

    deinit {
        let descriptor = self.descriptor
        Self.worker.submit { _ = close(descriptor) }
    }
}
