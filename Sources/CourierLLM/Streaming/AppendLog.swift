/// A list that only grows, shared by the snapshots taken of it: a snapshot keeps the storage
/// and the count it saw, and since elements once written never change, it reads them later
/// without copying, while the writer goes on appending past that count.
///
/// The writer alone appends. A copy of the writer (a copied decoder) appending after the other
/// copy did would write over elements a snapshot reads: ``append(_:)`` notices that the writer
/// token is shared and moves to storage of its own first (copy-on-write, once per copy).
struct AppendLog<Element> {
    /// Fixed-capacity storage; replaced by a larger copy when full, the old one staying intact
    /// for the snapshots that hold it.
    ///
    /// When the writer grows, the larger storage takes the elements over bit for bit (no copy
    /// of each element, no retain): the larger one owns them from then on, and the old one,
    /// which still holds the same bits for its readers, keeps them alive by keeping its
    /// `successor`. So an old snapshot keeps the storages after it alive too.
    final class Storage {
        let base: UnsafeMutablePointer<Element>
        let capacity: Int
        var initialized = 0
        /// The elements below this index belong to `successor` (moved there bit for bit).
        var ownedFrom = 0
        var successor: Storage?

        init(capacity: Int) {
            self.capacity = capacity
            base = UnsafeMutablePointer.allocate(capacity: capacity)
        }

        deinit {
            (base + ownedFrom).deinitialize(count: initialized - ownedFrom)
            base.deallocate()
        }
    }

    /// Only writers hold it: not uniquely referenced means the writer was copied.
    private final class WriterToken: Sendable {}

    private(set) var storage: Storage
    private(set) var count = 0
    private var token = WriterToken()

    init(capacity: Int = 16) {
        storage = Storage(capacity: capacity)
    }

    @inline(__always)
    mutating func append(_ element: Element) {
        if count == storage.capacity || !isKnownUniquelyReferenced(&token) { moveStorage(minimum: count + 1) }
        (storage.base + count).initialize(to: element)
        count += 1
        storage.initialized = count
    }

    @inline(__always)
    mutating func append(contentsOf elements: UnsafeBufferPointer<Element>) {
        guard !elements.isEmpty else { return }
        if count + elements.count > storage.capacity || !isKnownUniquelyReferenced(&token) {
            moveStorage(minimum: count + elements.count)
        }
        (storage.base + count).initialize(from: elements.baseAddress!, count: elements.count)
        count += elements.count
        storage.initialized = count
    }

    private mutating func moveStorage(minimum: Int) {
        let larger = Storage(capacity: Swift.max(minimum, storage.capacity * 2))
        if isKnownUniquelyReferenced(&token), storage.ownedFrom == 0, storage.initialized == count {
            // Grown by its only writer: the elements move over bit for bit (see `Storage`).
            UnsafeMutableRawPointer(larger.base).copyMemory(from: storage.base, byteCount: count * MemoryLayout<Element>.stride)
            storage.ownedFrom = count
            storage.successor = larger
        } else {
            // A copied writer: the other copy goes on writing to the old storage; copies.
            larger.base.initialize(from: storage.base, count: count)
        }
        larger.initialized = count
        storage = larger
        token = WriterToken()
    }
}

// Readers only read `base`, `capacity` (constants) and elements below a count they saw, which
// never change once written; `initialized`, `ownedFrom` and `successor` are read only in `deinit`.
extension AppendLog.Storage: @unchecked Sendable where Element: Sendable {}  // unchecked: elements fixed once written; the rest read in deinit

extension AppendLog: Sendable where Element: Sendable {}

extension AppendLog.Storage {
    /// The first `count` elements (a count a snapshot saw).
    func prefix(_ count: Int) -> UnsafeBufferPointer<Element> {
        UnsafeBufferPointer(start: base, count: count)
    }
}
