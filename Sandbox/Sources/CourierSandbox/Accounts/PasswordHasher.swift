import Foundation
import HummingbirdBcrypt
import NIOPosix
import SQLiteNIO
import Synchronization

/// bcrypt on a dedicated thread pool, so a 50–100 ms hash never runs on an event loop or a
/// Swift-concurrency thread (concurrent requests keep being served while hashes run).
struct PasswordHasher: Sendable {
    let cost: UInt8

    /// One pool per process, as many threads as cores: hashing is CPU-bound, more threads only queue.
    static let pool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: max(1, ProcessInfo.processInfo.activeProcessorCount))
        pool.start()
        return pool
    }()

    /// A bcrypt hash (`$2b$…`, salt included) of `password`.
    func hash(_ password: String) async throws -> String {
        let cost = self.cost
        return try await Self.pool.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    /// Makes the dummy hash for this cost now — once per process, a lookup afterwards — so the
    /// first login for an unknown name is not slower than one for a known name.
    func prepare() async throws {
        let cost = self.cost
        try await Self.pool.runIfActive { _ = DummyHashes.hash(for: cost) }
    }

    /// Whether `password` matches `hash`. With no hash (unknown user) it checks against a dummy
    /// hash of the same cost, so both cases take the same time and give the same answer.
    func verify(_ password: String, hash: String?) async throws -> Bool {
        let cost = self.cost
        return try await Self.pool.runIfActive {
            let matches = Bcrypt.verify(password, hash: hash ?? DummyHashes.hash(for: cost))
            return hash != nil && matches
        }
    }
}

/// Dummy hashes per cost, made on first use (a lock, because the hasher is used from many tasks).
private enum DummyHashes {
    private static let cache = Mutex<[UInt8: String]>([:])

    static func hash(for cost: UInt8) -> String {
        cache.withLock { cache in
            if let hash = cache[cost] { return hash }
            let hash = Bcrypt.hash(UUID().uuidString, cost: cost)
            cache[cost] = hash
            return hash
        }
    }
}
