import Courier

extension Sequence where Element: Sendable {
    /// Transforms every element with at most `limit` transforms at once and streams each
    /// outcome as soon as it finishes (completion order), successes and failures alike.
    ///
    /// Use it to collect failures next to the values; ``mergedValues(limit:onFailure:_:)``
    /// gives just the values. Errors are mapped to `NetworkError`. The sequence is copied
    /// into an array when the stream is made (the work runs in its own task); ending the
    /// iteration, or cancelling the consuming task, cancels the transforms still running. Finished outcomes wait in an unbounded buffer until the
    /// consumer reads them; at most `limit` transforms run at any time. A `limit` below 1
    /// is treated as 1.
    ///
    /// ```swift
    /// var failures: [NetworkError] = []
    /// for await finished in ids.mergedResults(limit: 8, { try await api.story(id: $0) }) {
    ///     switch finished.result {
    ///     case .success(let story): stories.append(story)
    ///     case .failure(let error): failures.append(error)
    ///     }
    /// }
    /// ```
    public func mergedResults<T: Sendable>(
        limit: Int,
        _ transform: @escaping @Sendable (Element) async throws -> T
    ) -> AsyncStream<IndexedResult<Element, T>> {
        let (stream, continuation) = AsyncStream.makeStream(of: IndexedResult<Element, T>.self)
        let elements = Array(self)
        let producer = Task {
            await BoundedFanOut.run(elements, limit: limit, transform) { finished in
                continuation.yield(finished)
                return true
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in producer.cancel() }
        return stream
    }

    /// Transforms every element with at most `limit` transforms at once and streams each
    /// value as soon as it arrives (completion order) — the seed's `mergedStories`.
    ///
    /// With ``MergeFailurePolicy/skip`` (the default) failed elements are left out and the
    /// stream never throws; with ``MergeFailurePolicy/failFast`` the first failure ends the
    /// stream with its `NetworkError` and cancels the rest. See
    /// ``mergedResults(limit:_:)`` for buffering and cancellation.
    ///
    /// ```swift
    /// for try await story in ids.prefix(maxStories).mergedValues(limit: 8, { try await api.story(id: $0) }) {
    ///     show(story)
    /// }
    /// ```
    public func mergedValues<T: Sendable>(
        limit: Int,
        onFailure policy: MergeFailurePolicy = .skip,
        _ transform: @escaping @Sendable (Element) async throws -> T
    ) -> AsyncThrowingStream<T, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: T.self)
        let elements = Array(self)
        let producer = Task {
            var failure: NetworkError?
            await BoundedFanOut.run(elements, limit: limit, transform) { finished in
                switch finished.result {
                case .success(let value):
                    continuation.yield(value)
                    return true
                case .failure(let error):
                    guard policy == .failFast else { return true }
                    failure = error
                    return false
                }
            }
            continuation.finish(throwing: failure)
        }
        continuation.onTermination = { _ in producer.cancel() }
        return stream
    }
}

/// The engine behind ``Swift/Sequence/mergedResults(limit:_:)``, ``Swift/Sequence/mergedValues(limit:onFailure:_:)``
/// and ``Paginator``.
enum BoundedFanOut {
    /// Runs `transform` over `elements`, at most `limit` at once, handing each outcome to
    /// `deliver` in completion order; `deliver` returns false to stop (cancelling the rest).
    /// Once the calling task is cancelled nothing more is delivered and the rest are cancelled.
    static func run<Element: Sendable, T: Sendable>(
        _ elements: [Element],
        limit: Int,
        _ transform: @escaping @Sendable (Element) async throws -> T,
        deliver: (IndexedResult<Element, T>) -> Bool
    ) async {
        let limit = Swift.max(1, limit)
        await withTaskGroup(of: IndexedResult<Element, T>.self) { group in
            var next = 0
            func startNext() -> Bool {
                guard next < elements.count else { return false }
                let index = next
                let element = elements[index]
                next += 1
                group.addTask {
                    do {
                        return IndexedResult(index: index, element: element, result: .success(try await transform(element)))
                    } catch {
                        return IndexedResult(index: index, element: element, result: .failure(NetworkError(error)))
                    }
                }
                return true
            }
            var running = 0
            while running < limit, startNext() {
                running += 1
            }
            while let finished = await group.next() {
                if Task.isCancelled || !deliver(finished) {
                    group.cancelAll()
                    return
                }
                if !startNext() { running -= 1 }
            }
        }
    }
}
