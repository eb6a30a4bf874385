/// An async sequence of ever-growing snapshots of another async sequence's elements — the
/// seed's `scan([]) { $0 + [$1] }.map { $0.sorted() }` without the quadratic copying.
///
/// It emits after every `every`-th element, and once more at the end if elements arrived
/// since the last emission; an empty base emits nothing. Errors of the base pass through.
/// Costs: O(log n) per element and O(1) per emission (see ``AccumulatedSnapshot``).
///
/// ```swift
/// let growing = storyStream.accumulated(sortedBy: { $0.time > $1.time })
/// for await stories in growing { model.stories = stories }
/// ```
public struct AccumulatedSequence<Base: AsyncSequence>: AsyncSequence where Base.Element: Sendable {
    /// A snapshot of everything so far.
    ///
    /// ```swift
    /// let snapshot: AccumulatedSequence<AsyncStream<Int>>.Element = AccumulatedSnapshot()
    /// ```
    public typealias Element = AccumulatedSnapshot<Base.Element>
    /// The base sequence's failure type.
    ///
    /// ```swift
    /// // AsyncStream<Int>.accumulated() never throws: its Failure is Never
    /// ```
    public typealias Failure = Base.Failure

    @usableFromInline let base: Base
    @usableFromInline let every: Int
    @usableFromInline let areInIncreasingOrder: (@Sendable (Base.Element, Base.Element) -> Bool)?

    @inlinable
    init(base: Base, every: Int, areInIncreasingOrder: (@Sendable (Base.Element, Base.Element) -> Bool)?) {
        self.base = base
        self.every = every
        self.areInIncreasingOrder = areInIncreasingOrder
    }

    /// Makes the iterator.
    ///
    /// ```swift
    /// var iterator = growing.makeAsyncIterator()
    /// ```
    @inlinable
    public func makeAsyncIterator() -> AsyncIterator {
        let accumulator = areInIncreasingOrder.map { Accumulator(sortedBy: $0) } ?? Accumulator()
        return AsyncIterator(base: base.makeAsyncIterator(), every: every, accumulator: accumulator)
    }

    /// Iterates the base and emits snapshots.
    ///
    /// ```swift
    /// let first = try await iterator.next()
    /// ```
    public struct AsyncIterator: AsyncIteratorProtocol {
        @usableFromInline var base: Base.AsyncIterator
        @usableFromInline let every: Int
        @usableFromInline var accumulator: Accumulator<Base.Element>
        @usableFromInline var pending = 0
        @usableFromInline var finished = false

        @inlinable
        init(base: Base.AsyncIterator, every: Int, accumulator: Accumulator<Base.Element>) {
            self.base = base
            self.every = every
            self.accumulator = accumulator
        }

        /// The next snapshot, on the caller's actor.
        ///
        /// ```swift
        /// let snapshot = try await iterator.next(isolation: #isolation)
        /// ```
        @inlinable
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(Base.Failure) -> Element? {
            guard !finished else { return nil }
            while true {
                guard let element = try await base.next(isolation: actor) else {
                    finished = true
                    return pending > 0 ? accumulator.snapshot : nil
                }
                accumulator.add(element)
                pending += 1
                if pending >= every {
                    pending = 0
                    return accumulator.snapshot
                }
            }
        }

        /// The next snapshot.
        ///
        /// ```swift
        /// let snapshot = try await iterator.next()
        /// ```
        @inlinable
        public mutating func next() async throws(Base.Failure) -> Element? {
            try await next(isolation: nil)
        }
    }
}

extension AccumulatedSequence: Sendable where Base: Sendable {}

extension AsyncSequence where Element: Sendable {
    /// Growing snapshots of this sequence's elements in arrival order.
    ///
    /// `every` (at least 1) batches emissions: with `every: 50` a list re-renders once per
    /// 50 arrivals instead of on each.
    ///
    /// ```swift
    /// for await soFar in events.accumulated() { model.log = soFar }
    /// ```
    @inlinable
    public func accumulated(every: Int = 1) -> AccumulatedSequence<Self> {
        AccumulatedSequence(base: self, every: Swift.max(1, every), areInIncreasingOrder: nil)
    }

    /// Growing snapshots of this sequence's elements, kept sorted by `areInIncreasingOrder`
    /// (equal elements keep arrival order).
    ///
    /// ```swift
    /// // The seed's Hacker News stories(), newest first:
    /// for try await stories in storyStream.accumulated(sortedBy: { $0.time > $1.time }) { … }
    /// ```
    @inlinable
    public func accumulated(
        every: Int = 1,
        sortedBy areInIncreasingOrder: @escaping @Sendable (Element, Element) -> Bool
    ) -> AccumulatedSequence<Self> {
        AccumulatedSequence(base: self, every: Swift.max(1, every), areInIncreasingOrder: areInIncreasingOrder)
    }
}

extension AsyncSequence where Element: Sendable & Comparable {
    /// Growing snapshots of this sequence's elements in ascending order.
    ///
    /// ```swift
    /// for await ids in idStream.accumulatedSorted() { … }
    /// ```
    @inlinable
    public func accumulatedSorted(every: Int = 1) -> AccumulatedSequence<Self> {
        accumulated(every: every, sortedBy: { $0 < $1 })
    }
}
