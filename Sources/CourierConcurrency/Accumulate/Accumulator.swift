/// Collects elements one by one, in arrival order or kept sorted, and hands out O(1)
/// ``AccumulatedSnapshot``s of everything so far.
///
/// Each ``add(_:)`` costs O(log n) — it never copies the elements already collected — so
/// accumulating n elements and taking a snapshot after each costs O(n log n) in all, where
/// the seed's `scan { $0 + [$1] }.map { $0.sorted() }` costs O(n² log n).
/// Equal elements keep their arrival order.
///
/// ```swift
/// var newestFirst = Accumulator<Story>(sortedBy: { $0.time > $1.time })
/// newestFirst.add(story)
/// model.stories = newestFirst.snapshot
/// ```
public struct Accumulator<Element: Sendable>: Sendable {
    /// Everything added so far, in order.
    ///
    /// ```swift
    /// model.stories = accumulator.snapshot
    /// ```
    @inlinable public var snapshot: AccumulatedSnapshot<Element> { current }
    @usableFromInline var current: AccumulatedSnapshot<Element>
    @usableFromInline let areInIncreasingOrder: (@Sendable (Element, Element) -> Bool)?

    /// An accumulator that keeps arrival order.
    ///
    /// ```swift
    /// var log = Accumulator<String>()
    /// ```
    @inlinable
    public init() {
        self.current = AccumulatedSnapshot()
        self.areInIncreasingOrder = nil
    }

    /// An accumulator that keeps its elements sorted by `areInIncreasingOrder`.
    ///
    /// ```swift
    /// var byStart = Accumulator<Program>(sortedBy: { $0.startDate < $1.startDate })
    /// ```
    @inlinable
    public init(sortedBy areInIncreasingOrder: @escaping @Sendable (Element, Element) -> Bool) {
        self.current = AccumulatedSnapshot()
        self.areInIncreasingOrder = areInIncreasingOrder
    }

    /// The number of elements added.
    ///
    /// ```swift
    /// Text("\(accumulator.count) stories")
    /// ```
    @inlinable public var count: Int { snapshot.count }

    /// Adds `element` in O(log n): at the end, or after the last element not greater than it.
    ///
    /// ```swift
    /// accumulator.add(story)
    /// ```
    @inlinable
    public mutating func add(_ element: Element) {
        let target: RopeNode<Element>.Target
        if let areInIncreasingOrder {
            target = .sorted(areInIncreasingOrder)
        } else {
            target = .position(current.root.count)
        }
        current = AccumulatedSnapshot(root: current.root.inserting(element, target))
    }

    /// Adds every element of `elements`, one by one.
    ///
    /// ```swift
    /// accumulator.add(contentsOf: page.rows)
    /// ```
    @inlinable
    public mutating func add(contentsOf elements: some Sequence<Element>) {
        for element in elements { add(element) }
    }
}
