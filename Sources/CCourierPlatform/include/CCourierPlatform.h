#ifndef C_COURIER_PLATFORM_H
#define C_COURIER_PLATFORM_H

/// Asks the kernel to start writing `count` bytes of `fd` from `offset` on back to disk, without
/// waiting for them: Linux's `sync_file_range(SYNC_FILE_RANGE_WRITE)`, which glibc declares only
/// with `_GNU_SOURCE` (so Swift's Glibc module does not show it). 0 when asked; -1 with `errno`
/// set when not (`ENOSYS` where there is no such call: every system but Linux).
int c_courier_start_write_back(int fd, long long offset, long long count);

#endif
