/// An immutable view of everything accumulated so far, in order — what
/// ``AccumulatedSequence`` emits instead of a freshly copied `Array`.
///
/// Making a snapshot costs O(1): it shares storage with the accumulator and with every other
/// snapshot (a persistent B-tree; adding an element copies one root-to-leaf path, about 80
/// element slots). Reading element `i` costs O(log n), iterating all of them O(n), and
/// ``array`` copies them out in O(n). A screen that re-renders every element on every
/// emission still pays O(n) per emission — use the `every:` batching of
/// ``_Concurrency/AsyncSequence/accumulated(every:)`` when that matters.
///
/// ```swift
/// for await stories in api.mergedStories(ids: ids).accumulated(sortedBy: { $0.time > $1.time }) {
///     model.stories = stories  // a RandomAccessCollection, newest first
/// }
/// ```
public struct AccumulatedSnapshot<Element: Sendable>: RandomAccessCollection, Sendable {
    @usableFromInline
    let root: RopeNode<Element>

    @inlinable
    init(root: RopeNode<Element>) {
        self.root = root
    }

    /// An empty snapshot.
    ///
    /// ```swift
    /// var stories = AccumulatedSnapshot<Story>()
    /// ```
    @inlinable
    public init() {
        self.root = .empty
    }

    /// Always 0.
    ///
    /// ```swift
    /// snapshot.startIndex // 0
    /// ```
    @inlinable public var startIndex: Int { 0 }

    /// The number of elements.
    ///
    /// ```swift
    /// for i in snapshot.startIndex..<snapshot.endIndex { _ = snapshot[i] }
    /// ```
    @inlinable public var endIndex: Int { root.count }

    /// The element at `position`, in O(log n).
    ///
    /// ```swift
    /// let newest = snapshot[0]
    /// ```
    @inlinable
    public subscript(position: Int) -> Element {
        precondition(position >= 0 && position < root.count, "AccumulatedSnapshot index out of range")
        return root.element(at: position)
    }

    /// The elements copied into an `Array`, in O(n).
    ///
    /// ```swift
    /// let stories: [Story] = snapshot.array
    /// ```
    public var array: [Element] { Array(self) }

    /// Iterates leaf by leaf: O(n) for the whole snapshot.
    ///
    /// ```swift
    /// for story in snapshot { print(story.title) }
    /// ```
    @inlinable
    public func makeIterator() -> Iterator {
        Iterator(root: root)
    }

    /// Walks the leaves of the shared tree in order.
    ///
    /// ```swift
    /// var iterator = snapshot.makeIterator()
    /// let first = iterator.next()
    /// ```
    public struct Iterator: IteratorProtocol {
        @usableFromInline var stack: [(node: RopeNode<Element>, next: Int)] = []
        @usableFromInline var leaf: [Element] = []
        @usableFromInline var leafIndex = 0

        @inlinable
        init(root: RopeNode<Element>) {
            descend(from: root)
        }

        /// The next element, or nil at the end.
        ///
        /// ```swift
        /// while let story = iterator.next() { show(story) }
        /// ```
        @inlinable
        public mutating func next() -> Element? {
            while leafIndex == leaf.count {
                guard let top = stack.popLast() else { return nil }
                if top.next < top.node.children.count {
                    stack.append((top.node, top.next + 1))
                    descend(from: top.node.children[top.next])
                }
            }
            defer { leafIndex += 1 }
            return leaf[leafIndex]
        }

        @inlinable
        mutating func descend(from node: RopeNode<Element>) {
            var node = node
            while !node.isLeaf {
                stack.append((node, 1))
                node = node.children[0]
            }
            leaf = node.elements
            leafIndex = 0
        }
    }
}

extension AccumulatedSnapshot: Equatable where Element: Equatable {
    /// Equal when they hold equal elements in the same order (O(1) when they share a root).
    ///
    /// ```swift
    /// if newSnapshot != model.stories { model.stories = newSnapshot }
    /// ```
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.root === rhs.root || lhs.elementsEqual(rhs)
    }
}

extension AccumulatedSnapshot: CustomStringConvertible {
    /// The elements, like an array's description.
    ///
    /// ```swift
    /// String(describing: snapshot) // "[3, 2, 1]"
    /// ```
    public var description: String { array.description }
}
