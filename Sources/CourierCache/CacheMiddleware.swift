import Courier
public import CourierTransportCore
public import Foundation
public import HTTPTypes
public import Logging
public import OpenAPIRuntime

/// A private HTTP cache (RFC 9111) as a middleware: every Courier client, and OpenAPI-generated
/// clients, get one by adding it.
///
/// ```swift
/// let cache = CacheMiddleware(storage: MemoryCacheStorage(maxBytes: 20 << 20))
/// let client = NetworkClient(configuration: .init(baseURL: url, middlewares: [cache]))
/// ```
///
/// It stores GET responses that may be stored (statuses cacheable by default or with explicit
/// freshness; not `no-store`; with `Authorization` only when the response allows it), reuses
/// them while fresh (`max-age`, `Expires`/`Date`, `Age`, 10% of the time since `Last-Modified`),
/// validates stale and `no-cache` ones with `If-None-Match`/`If-Modified-Since` (a 304 updates
/// the stored header fields and serves the stored body), keeps variants apart by `Vary`, honours
/// `must-revalidate`, `stale-while-revalidate`, `stale-if-error` (and serves stale when the
/// origin cannot be reached, unless `must-revalidate`/`no-cache` forbid it: then 504) and the request directives
/// (`no-cache`, `no-store`, `max-age`, `max-stale`, `min-fresh`, `only-if-cached` → 504), and
/// forgets what it stored for a URL when an unsafe method to it (or to its `Location` /
/// `Content-Location`) succeeds. Every response it serves carries a correct `Age`. A call chooses
/// how it uses the cache with `CallTraits.cachePolicy`. HEAD is answered from a stored GET.
///
/// Put it after `RetryMiddleware` and before `LoggingMiddleware` so that a hit is never
/// retried and the log shows what went to the network.
public final class CacheMiddleware: ClientMiddleware, CallMiddleware, Sendable {
    /// Where responses are kept.
    public let storage: any CacheStorage
    /// The largest body it holds in memory to store. A larger one (declared, or growing past it
    /// while it arrives) is written to a file as it streams to the caller when the storage is a
    /// ``DiskCacheStorage``, and passes through unstored otherwise.
    public let maxEntryBytes: Int
    /// The policy of calls that keep the default one (`CachePolicy.standard` in their traits),
    /// and of calls made without a Courier call context (OpenAPI-generated clients).
    public let defaultPolicy: CachePolicy
    let clock: @Sendable () -> Date
    let logger: Logger

    /// Variants kept per URL (responses that differ by `Vary`).
    static let maxVariants = 8
    /// RFC 9110 §9.2.1's safe methods: anything else invalidates.
    static let safeMethods: Set<HTTPRequest.Method> = [.get, .head, .options, .trace]
    /// Request fields that make a request conditional: such a request is the caller's own business.
    static let conditionalFields: [HTTPField.Name] = [.ifNoneMatch, .ifModifiedSince, .ifMatch, .ifUnmodifiedSince, .ifRange]

    /// A cache over `storage` that holds bodies up to `maxEntryBytes` in memory to store them (a
    /// ``DiskCacheStorage`` streams larger ones to disk); `defaultPolicy` applies
    /// to calls that do not choose another (`CachePolicy.offline` makes a whole client read
    /// only what is stored); `clock` tells the time (tests inject one).
    ///
    /// ```swift
    /// let offline = CacheMiddleware(storage: try DiskCacheStorage(directory: folder), defaultPolicy: .offline)
    /// ```
    public init(
        storage: any CacheStorage = MemoryCacheStorage(),
        maxEntryBytes: Int = 8 << 20,
        defaultPolicy: CachePolicy = .standard,
        logger: Logger = Logger(label: "courier.cache"),
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.storage = storage
        self.maxEntryBytes = maxEntryBytes
        self.defaultPolicy = defaultPolicy
        self.logger = logger
        self.clock = clock
    }

    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        try await intercept(request, body: body, baseURL: baseURL, operationID: operationID, context: CallContext.current, next: next)
    }

    package func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        context: CallContext?,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        // A streamed answer passes by — but for a download to a file through a disk store, which
        // is served from the store (its body file checked first) and stored by linking the
        // finished file (see DownloadStoreOffer).
        var download: DownloadStoreOffer?
        if context?.streamsResponse == true {
            guard let handOff = context?.downloadOffer, storage is DiskCacheStorage, request.method == .get else {
                Self.note(.bypassed, context)
                return try await next(request, body, baseURL)
            }
            download = handOff
        }
        let key = Self.key(request.path ?? "/", baseURL) + CacheCredentials.keySuffix(request.headerFields, key: storage.credentialKey)
        guard request.method == .get || request.method == .head else {
            Self.note(.bypassed, context)
            let answer = try await next(request, body, baseURL)
            if !Self.safeMethods.contains(request.method), (200..<400).contains(answer.0.status.code) {
                invalidate(key, after: answer.0)
                if request.method == .post {
                    return try await storePost(answer, key: key, limit: context?.maxResponseBytes ?? ReplayableBody.limit, context: context)
                }
            }
            return answer
        }
        let chosen = context?.traits.cachePolicy ?? .standard
        let exchange = Exchange(
            request: request, baseURL: baseURL, key: key, policy: chosen == .standard ? defaultPolicy : chosen,
            limit: context?.maxResponseBytes ?? ReplayableBody.limit, download: download, context: context)
        return try await lookup(exchange, next: next)
    }

    /// One GET or HEAD going through the cache.
    struct Exchange: Sendable {
        let request: HTTPRequest
        let baseURL: URL
        let key: String
        let policy: CachePolicy
        let limit: Int
        /// For a download to a file: where the finished file is offered to the store.
        let download: DownloadStoreOffer?
        /// The call's context (its timeline, where a collected answer is handed over), if any.
        let context: CallContext?
        /// The variants the lookup found (what a 304's update is stored among).
        var stored: [CachedResponse] = []
        var directives: CacheControl { CacheControl(request.headerFields) }
    }

    typealias Next = @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)

    private func lookup(_ exchange: Exchange, next: Next) async throws -> (HTTPResponse, HTTPBody?) {
        var exchange = exchange
        let request = exchange.request
        let directives = exchange.directives
        let conditional = Self.conditionalFields.contains { request.headerFields[$0] != nil }
        let variants = exchange.policy == .reload || conditional ? [] : storage.variants(for: exchange.key)
        exchange.stored = variants
        if exchange.policy == .offline { return serveOffline(variants, request, exchange.context) }
        guard let entry = variants.first(where: { $0.matches(request.headerFields) }) else {
            if directives.onlyIfCached { return Self.gatewayTimeout() }
            logger.trace("cache miss", metadata: ["cache.outcome": "miss"])
            Self.note(.miss, exchange.context)
            let stored = variants.filter { $0.value(.eTag) != nil && !$0.varyNames.contains("*") }
            if !stored.isEmpty, !conditional, exchange.policy != .reload, request.headerFields[.range] == nil {
                return try await selectVariant(stored, exchange, next: next)
            }
            return try await fetch(exchange, next: next)
        }
        let freshness = CacheFreshness(entry, now: clock())
        // RFC 8246: a fresh immutable response is not validated on a reload (request no-cache / max-age=0).
        let immutable = freshness.directives.immutable && freshness.isFresh && !freshness.directives.noCache
        let validates = (directives.noCache && !immutable) || freshness.directives.noCache
        if let range = request.headerFields[.range] {
            // A range of a fresh complete response is cut from it; anything else is the origin's.
            if !validates, Self.acceptable(freshness, request: directives), entry.status == 200,
                let bytes = ByteRange(range, length: entry.bodyLength)
            {
                return servePartial(entry, bytes, age: freshness.age, method: request.method, context: exchange.context)
            }
            return try await fetch(exchange, next: next)
        }
        if !validates, immutable || Self.acceptable(freshness, request: directives) {
            logger.trace("cache hit", metadata: ["cache.outcome": "hit"])
            Self.note(.freshHit, exchange.context)
            return serve(entry, age: freshness.age, method: request.method, context: exchange.context)
        }
        if directives.onlyIfCached { return Self.gatewayTimeout() }
        if !validates, !freshness.directives.mustRevalidate, let window = freshness.directives.staleWhileRevalidate,
            freshness.staleness <= window
        {
            logger.trace("cache hit (stale while revalidate)", metadata: ["cache.outcome": "stale"])
            Self.note(.staleServed, exchange.context)
            return serve(entry, age: freshness.age, method: request.method, context: exchange.context)
        }
        return try await validate(entry, freshness: freshness, exchange, next: next)
    }

    /// `CachePolicy.offline`: the matching stored response however stale (a range of it when
    /// asked), or a 504 without touching the network.
    private func serveOffline(_ variants: [CachedResponse], _ request: HTTPRequest, _ context: CallContext?) -> (HTTPResponse, HTTPBody?) {
        guard let entry = variants.first(where: { $0.matches(request.headerFields) }) else {
            logger.trace("cache miss (offline)", metadata: ["cache.outcome": "offline-miss"])
            return Self.gatewayTimeout()
        }
        let age = CacheFreshness.age(entry, now: clock())
        if let range = request.headerFields[.range], entry.status == 200, let bytes = ByteRange(range, length: entry.bodyLength) {
            return servePartial(entry, bytes, age: age, method: request.method, context: context)
        }
        return serve(entry, age: age, method: request.method, context: context)
    }

    /// Whether a stored response may answer a request with `request` directives without validation.
    static func acceptable(_ freshness: CacheFreshness, request: CacheControl) -> Bool {
        if let maxAge = request.seconds("max-age", invalid: 0), freshness.age > maxAge || maxAge == 0 { return false }
        if let minFresh = request.minFresh, freshness.lifetime - freshness.age < minFresh { return false }
        if freshness.isFresh { return true }
        guard !freshness.directives.mustRevalidate, let maxStale = request.maxStale else { return false }
        return freshness.staleness <= maxStale
    }

    /// Records `outcome` in the timeline of the call `context` describes, if it has one.
    static func note(_ outcome: CallStep.CacheOutcome, _ context: CallContext?) {
        context?.recorder?.record(.cache(outcome))
    }

    /// The primary cache key: the absolute URL.
    static func key(_ path: String, _ baseURL: URL) -> String {
        var base = baseURL.absoluteString
        if base.hasSuffix("/") { base.removeLast() }
        return path.hasPrefix("/") ? base + path : base + "/" + path
    }

    /// The answer to `only-if-cached` when nothing suitable is stored (RFC 9111 §5.2.1.7).
    static func gatewayTimeout() -> (HTTPResponse, HTTPBody?) {
        (HTTPResponse(status: .gatewayTimeout), HTTPBody())
    }
}
