import Foundation

/// The JSON body `GET /cache/{key}?json=N` answers: a feed-like document of about `N` bytes
/// (whole items, so it may be a little larger), for measuring a cache on realistic JSON.
///
/// ```swift
/// let feed = try await client.request(sandbox.get("/cache/feed?json=2048&cc=max-age=60"), as: CacheDocument.self)
/// #expect(feed.items.count > 10)
/// ```
public struct CacheDocument: Codable, Sendable, Equatable {
    /// One entry of the document.
    public struct Item: Codable, Sendable, Equatable {
        /// Its number, from 1.
        public var id: Int
        /// A short title.
        public var title: String
        /// Its score.
        public var score: Int
        /// Whether it is marked.
        public var flagged: Bool
    }

    /// The route's key.
    public var key: String
    /// Which request for the key this is (1-based).
    public var hit: Int
    /// The entries.
    public var items: [Item]

    /// A document for `key`'s `hit`-th request with as many items as make about `approximateBytes`.
    public init(key: String, hit: Int, approximateBytes: Int) {
        self.key = key
        self.hit = hit
        // Each item encodes to about 64 bytes; the envelope to about 40.
        let count = max(0, (approximateBytes - 40 + 63) / 64)
        self.items = (0..<count).map { index in
            Item(id: index + 1, title: "Cached item number \(String(format: "%05d", index + 1))", score: (index * 37) % 1000, flagged: index % 3 == 0)
        }
    }
}
