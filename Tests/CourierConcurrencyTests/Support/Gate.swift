/// A one-shot gate: `wait()` suspends until `open()` (cancellation-aware).
actor Gate {
    private var isOpen = false
    private var waiters: [Int: CheckedContinuation<Void, any Error>] = [:]
    private var nextID = 0

    var waiting: Int { waiters.count }

    func open() {
        isOpen = true
        for waiter in waiters.values { waiter.resume() }
        waiters.removeAll()
    }

    func wait() async throws {
        nextID += 1
        let id = nextID
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                if isOpen {
                    continuation.resume()
                } else if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                } else {
                    waiters[id] = continuation
                }
            }
        } onCancel: {
            Task { await self.cancel(id) }
        }
    }

    private func cancel(_ id: Int) {
        waiters.removeValue(forKey: id)?.resume(throwing: CancellationError())
    }
}
