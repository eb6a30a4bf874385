/// The keys of one JSON object seen so far, for the scanner's repeated-key check.
///
/// Linear in the number of keys: a hostile object with 50,000 distinct keys once took the
/// scanner 13 s (release build), each key compared with every one before it. The answer's own
/// objects have two or three keys, so those stay in a small array (no hashing, no Set allocated);
/// past ``smallCount`` keys they move into a Set. Keys compare as Swift Strings (canonical
/// equivalence), in both forms alike.
struct SeenKeys {
    /// Up to this many keys are compared one by one.
    static let smallCount = 8

    private var small: [String] = []
    private var large: Set<String>?

    /// Adds `key`; false when it was already there.
    mutating func insert(_ key: String) -> Bool {
        if large != nil { return large?.insert(key).inserted ?? false }
        guard !small.contains(key) else { return false }
        small.append(key)
        if small.count > Self.smallCount {
            large = Set(small)
            small = []
        }
        return true
    }
}
