import CCourierPlatform

extension Platform {
    /// Asks the kernel to start writing `count` bytes of `descriptor` from `offset` on back to
    /// disk, without waiting (Linux's `sync_file_range(SYNC_FILE_RANGE_WRITE)`); false where
    /// the system has no such call, or it failed — the final `fsync` then does all the work.
    @discardableResult
    package static func startWriteBack(_ descriptor: Int32, from offset: Int64, count: Int64) -> Bool {
        c_courier_start_write_back(descriptor, offset, count) == 0
    }
}
