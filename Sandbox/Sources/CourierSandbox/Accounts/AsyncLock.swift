/// A first-come, first-served lock for async code: the holder may suspend (an SQLite call)
/// without another task's statements slipping into its transaction, which actor isolation
/// alone (re-entrant at every `await`) does not prevent.
actor AsyncLock {
    private var locked = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var head = 0

    /// Runs `body` while holding the lock.
    func withLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        await acquire()
        do {
            let result = try await body()
            release()
            return result
        } catch {
            release()
            throw error
        }
    }

    private func acquire() async {
        guard locked else {
            locked = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    private func release() {
        guard head < waiters.count else {
            locked = false
            waiters.removeAll(keepingCapacity: true)
            head = 0
            return
        }
        let next = waiters[head]
        head += 1
        next.resume()
    }
}
