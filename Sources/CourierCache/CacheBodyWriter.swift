import Courier
import CourierTransportCore
import Foundation
import Synchronization

/// A store that can keep a body too large for memory: ``CacheMiddleware`` writes such a body to
/// the file it gives while passing the body on to the caller.
protocol StreamingCacheStorage: CacheStorage {
    /// A new temporary file for a body of a response to store under `key`; nil when none can be made.
    func makeBodyWriter(for key: String) -> CacheBodyWriter?
}

/// A body on its way into a disk store: appended to a temporary file (mode 0600) as it arrives,
/// renamed into place by ``commit()`` only once it is whole. Discarded — the temporary file
/// removed — when a write fails, when it would pass the store's bound, on ``discard()``, or when
/// it is released unfinished (the caller stopped reading, the task was cancelled).
final class CacheBodyWriter: Sendable {
    private struct State {
        var descriptor: Int32
        var written = 0
        var done = false
    }

    private let state: Mutex<State>
    private let temporaryPath: String
    private let finalPath: String
    private let limit: Int
    private let committed: @Sendable (Int) -> Void

    /// Creates `temporaryPath`; `finalPath` is where ``commit()`` moves it; at most `limit` bytes;
    /// `committed` hears the length of each committed file.
    init?(temporaryPath: String, finalPath: String, limit: Int, committed: @escaping @Sendable (Int) -> Void) {
        let descriptor = open(temporaryPath, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { return nil }
        self.state = Mutex(State(descriptor: descriptor))
        self.temporaryPath = temporaryPath
        self.finalPath = finalPath
        self.limit = limit
        self.committed = committed
    }

    deinit { discard() }

    /// Bytes written so far.
    var count: Int { state.withLock { $0.written } }

    /// Appends `bytes`; false (and the file discarded) when they cannot be written.
    func write(_ bytes: ArraySlice<UInt8>) -> Bool {
        let failed = state.withLock { state -> Bool in
            guard !state.done else { return true }
            guard state.written + bytes.count <= limit else { return true }
            let descriptor = state.descriptor
            let written = bytes.withUnsafeBytes { PrivateFile.writeAll($0, to: descriptor) }
            state.written += written
            return written != bytes.count
        }
        if failed { discard() }
        return !failed
    }

    /// Moves the file into place and returns it open for reading; nil (and nothing left behind)
    /// when it was discarded or cannot be moved.
    func commit() -> CachedBodyFile? {
        let file = state.withLock { state -> CachedBodyFile? in
            guard !state.done else { return nil }
            state.done = true
            guard rename(temporaryPath, finalPath) == 0 else {
                close(state.descriptor)
                unlink(temporaryPath)
                return nil
            }
            // The descriptor was opened for reading too: the committed file keeps it.
            return CachedBodyFile(path: finalPath, descriptor: state.descriptor, length: state.written)
        }
        if let file { committed(file.length) }
        return file
    }

    /// Removes the temporary file (nothing once committed).
    func discard() {
        state.withLock { state in
            guard !state.done else { return }
            state.done = true
            close(state.descriptor)
            unlink(temporaryPath)
        }
    }
}
