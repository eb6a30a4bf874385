import Courier
import CourierTransportCore
import Synchronization

/// A ``CacheStorage`` in memory: least recently used entries are dropped to stay within a byte
/// bound.
///
/// ```swift
/// let cache = CacheMiddleware(storage: MemoryCacheStorage(maxBytes: 20 << 20))
/// ```
public final class MemoryCacheStorage: CacheStorage {
    /// The most bytes (bodies plus headers, roughly) it holds.
    public let maxBytes: Int
    private let state: Mutex<LRUList>

    /// A store that holds at most `maxBytes` (10 MiB by default).
    public init(maxBytes: Int = 10 << 20) {
        self.maxBytes = maxBytes
        self.state = Mutex(LRUList())
    }

    /// Bytes held now.
    public var bytes: Int { state.withLock { $0.bytes } }
    /// Keys held now.
    public var count: Int { state.withLock { $0.nodes.count } }

    public func variants(for key: String) -> [CachedResponse] {
        state.withLock { list in
            guard let node = list.nodes[key] else { return [] }
            list.moveToFront(key)
            return node.variants
        }
    }

    public func store(_ variants: [CachedResponse], for key: String) {
        let cost = variants.reduce(0) { $0 + $1.cost }
        state.withLock { list in
            list.remove(key)
            guard !variants.isEmpty, cost <= maxBytes else { return }
            list.insertFront(key, variants: variants, cost: cost)
            while list.bytes > maxBytes, let oldest = list.tail { list.remove(oldest) }
        }
    }

    public func remove(_ key: String) { state.withLock { $0.remove(key) } }

    public func removeAll() { state.withLock { $0 = LRUList() } }
}

/// A doubly linked recency list over a dictionary: O(1) touch, insert and evict.
struct LRUList {
    struct Node {
        var variants: [CachedResponse]
        var cost: Int
        var newer: String?
        var older: String?
    }

    var nodes: [String: Node] = [:]
    var head: String?
    var tail: String?
    var bytes = 0

    mutating func insertFront(_ key: String, variants: [CachedResponse], cost: Int) {
        nodes[key] = Node(variants: variants, cost: cost, newer: nil, older: head)
        if let head { nodes[head]?.newer = key }
        head = key
        if tail == nil { tail = key }
        bytes += cost
    }

    mutating func moveToFront(_ key: String) {
        guard head != key, let node = nodes[key] else { return }
        remove(key)
        insertFront(key, variants: node.variants, cost: node.cost)
    }

    mutating func remove(_ key: String) {
        guard let node = nodes.removeValue(forKey: key) else { return }
        if let newer = node.newer { nodes[newer]?.older = node.older } else { head = node.older }
        if let older = node.older { nodes[older]?.newer = node.newer } else { tail = node.newer }
        bytes -= node.cost
    }
}
