/// An immutable node of a persistent, order-statistic B-tree ("rope") — the shared storage
/// behind ``AccumulatedSnapshot``.
///
/// Inserting copies only the path from the root to one leaf (at most `maxLeaf` elements plus
/// `maxChildren` references per level), so every older root stays valid and unchanged: a
/// snapshot is just a root reference. Nodes are never mutated after creation.
@usableFromInline
final class RopeNode<Element: Sendable>: Sendable {
    @inlinable static var maxLeaf: Int { 32 }
    @inlinable static var maxChildren: Int { 16 }

    /// Payload of a leaf; empty for internal nodes.
    @usableFromInline
    let elements: [Element]
    /// Children of an internal node; empty for leaves.
    @usableFromInline
    let children: [RopeNode<Element>]
    /// Number of elements in this subtree.
    @usableFromInline
    let count: Int
    /// The subtree's first element (its smallest when the rope is kept sorted).
    @usableFromInline
    let first: Element?

    @inlinable var isLeaf: Bool { children.isEmpty }

    /// Levels from this node down to its leaves (1 for a leaf); the tree is balanced.
    var height: Int { isLeaf ? 1 : 1 + children[0].height }

    @inlinable
    init(leaf elements: [Element]) {
        self.elements = elements
        self.children = []
        self.count = elements.count
        self.first = elements.first
    }

    @inlinable
    init(children: [RopeNode<Element>]) {
        self.elements = []
        self.children = children
        self.count = children.reduce(0) { $0 + $1.count }
        self.first = children.first?.first
    }

    @inlinable static var empty: RopeNode<Element> { RopeNode(leaf: []) }

    /// Where an insertion goes.
    @usableFromInline
    enum Target {
        /// At this position (0...count).
        case position(Int)
        /// After every element that is not greater (stable sorted insertion).
        case sorted(@Sendable (Element, Element) -> Bool)
    }

    /// The root after inserting `element`; the receiver is unchanged.
    @inlinable
    func inserting(_ element: Element, _ target: Target) -> RopeNode<Element> {
        let (left, right) = insert(element, target)
        guard let right else { return left }
        return RopeNode(children: [left, right])
    }

    /// The element at `position` (0..<count).
    @inlinable
    func element(at position: Int) -> Element {
        var node = self
        var position = position
        while !node.isLeaf {
            var childIndex = 0
            while position >= node.children[childIndex].count {
                position -= node.children[childIndex].count
                childIndex += 1
            }
            node = node.children[childIndex]
        }
        return node.elements[position]
    }

    /// The copy of this node with `element` inserted, split in two when it overflows.
    @inlinable
    func insert(_ element: Element, _ target: Target) -> (RopeNode, RopeNode?) {
        if isLeaf {
            var elements = self.elements
            let index: Int
            switch target {
            case .position(let position): index = position
            case .sorted(let less): index = Self.upperBound(of: element, in: elements, by: less)
            }
            elements.insert(element, at: index)
            guard elements.count > Self.maxLeaf else { return (RopeNode(leaf: elements), nil) }
            let half = elements.count / 2
            return (RopeNode(leaf: Array(elements[..<half])), RopeNode(leaf: Array(elements[half...])))
        }
        let (childIndex, childTarget) = locateChild(for: element, target)
        var children = self.children
        let (left, right) = children[childIndex].insert(element, childTarget)
        children[childIndex] = left
        if let right { children.insert(right, at: childIndex + 1) }
        guard children.count > Self.maxChildren else { return (RopeNode(children: children), nil) }
        let half = children.count / 2
        return (RopeNode(children: Array(children[..<half])), RopeNode(children: Array(children[half...])))
    }

    @inlinable
    func locateChild(for element: Element, _ target: Target) -> (Int, Target) {
        switch target {
        case .position(var position):
            var index = 0
            while index < children.count - 1, position > children[index].count {
                position -= children[index].count
                index += 1
            }
            return (index, .position(position))
        case .sorted(let less):
            // The last child whose first element is not greater than `element`.
            var low = 0
            var high = children.count
            while low < high {
                let mid = (low + high) / 2
                if let first = children[mid].first, less(element, first) {
                    high = mid
                } else {
                    low = mid + 1
                }
            }
            return (Swift.max(0, low - 1), target)
        }
    }

    @inlinable
    static func upperBound(of element: Element, in elements: [Element], by less: (Element, Element) -> Bool) -> Int {
        var low = 0
        var high = elements.count
        while low < high {
            let mid = (low + high) / 2
            if less(element, elements[mid]) {
                high = mid
            } else {
                low = mid + 1
            }
        }
        return low
    }
}
