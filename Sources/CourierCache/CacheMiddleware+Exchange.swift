import Courier
import CourierTransportCore
import Foundation
import HTTPTypes
import Logging
import OpenAPIRuntime

extension CacheMiddleware {
    /// Sends the request as it is and stores the answer when it may.
    func fetch(_ exchange: Exchange, next: Next) async throws -> (HTTPResponse, HTTPBody?) {
        let requestTime = clock()
        let (head, body) = try await next(exchange.request, nil, exchange.baseURL)
        return try await admit(head, body, exchange, requestTime: requestTime)
    }

    /// No variant matches the request's `Vary` fields: asks the origin whether one of the stored
    /// ones (by ETag) will do (RFC 9111 §4.3.2); a 304 naming one serves it for these fields too.
    func selectVariant(_ variants: [CachedResponse], _ exchange: Exchange, next: Next) async throws -> (HTTPResponse, HTTPBody?) {
        var conditional = exchange.request
        conditional.headerFields[.ifNoneMatch] = variants.compactMap { $0.value(.eTag) }.joined(separator: ", ")
        let requestTime = clock()
        let (head, body) = try await next(conditional, nil, exchange.baseURL)
        guard head.status.code == 304 else { return try await admit(head, body, exchange, requestTime: requestTime) }
        if let body { _ = try? await BodyCollector.collect(body, limit: exchange.limit) }
        guard let chosen = variants.first(where: { $0.value(.eTag) == head.headerFields[.eTag] }) ?? (variants.count == 1 ? variants.first : nil)
        else {
            return try await fetch(exchange, next: next)
        }
        var updated = Self.freshened(chosen, with: head, requestTime: requestTime, responseTime: clock())
        updated.varyValues = CachedResponse.varyValues(exchange.request.headerFields, vary: updated.value(.vary))
        save(updated, exchange, freshened: true)
        return serve(updated, age: CacheFreshness.age(updated, now: clock()), method: exchange.request.method, context: exchange.context)
    }

    /// Validates `entry` with the origin: a 304 freshens and serves it; a failure may serve it stale.
    func validate(_ entry: CachedResponse, freshness: CacheFreshness, _ exchange: Exchange, next: Next) async throws -> (HTTPResponse, HTTPBody?) {
        var conditional = exchange.request
        if let etag = entry.value(.eTag) { conditional.headerFields[.ifNoneMatch] = etag }
        if let lastModified = entry.value(.lastModified) { conditional.headerFields[.ifModifiedSince] = lastModified }
        let requestTime = clock()
        let head: HTTPResponse
        let body: HTTPBody?
        do {
            (head, body) = try await next(conditional, nil, exchange.baseURL)
        } catch {
            if Task.isCancelled { throw error }
            // Disconnected (RFC 9111 §4.2.4): a stale response may be served unless a directive
            // forbids it; must-revalidate / no-cache then make it a 504 (§5.2.2.2), never the stale one.
            let strict = freshness.directives.mustRevalidate || freshness.directives.noCache
            if exchange.policy == .preferCache || (!strict && !exchange.directives.noCache) {
                logger.debug("serving stale after a network failure", metadata: ["cache.outcome": "stale-if-error"])
                Self.note(.staleServed, exchange.context)
                return serve(entry, age: CacheFreshness.age(entry, now: clock()), method: exchange.request.method, context: exchange.context)
            }
            if strict { return Self.gatewayTimeout() }
            throw error
        }
        if head.status.code == 304 {
            if let body { _ = try? await BodyCollector.collect(body, limit: exchange.limit) }
            let updated = Self.freshened(entry, with: head, requestTime: requestTime, responseTime: clock())
            save(updated, exchange, freshened: true)
            logger.trace("cache revalidated", metadata: ["cache.outcome": "revalidated"])
            Self.note(.revalidated, exchange.context)
            return serve(updated, age: CacheFreshness.age(updated, now: clock()), method: exchange.request.method, context: exchange.context)
        }
        if head.status.code >= 500, servesStaleOnError(freshness, exchange) {
            if let body { _ = try? await BodyCollector.collect(body, limit: exchange.limit) }
            Self.note(.staleServed, exchange.context)
            return serve(entry, age: CacheFreshness.age(entry, now: clock()), method: exchange.request.method, context: exchange.context)
        }
        return try await admit(head, body, exchange, requestTime: requestTime)
    }

    /// Whether a stale `freshness` may be served because the origin failed.
    func servesStaleOnError(_ freshness: CacheFreshness, _ exchange: Exchange) -> Bool {
        if exchange.policy == .preferCache { return true }
        if freshness.directives.mustRevalidate || freshness.directives.noCache || exchange.directives.noCache { return false }
        let window = max(exchange.directives.staleIfError ?? -1, freshness.directives.staleIfError ?? -1)
        return freshness.staleness <= window
    }

    /// Stores `head` and `body` when they may be stored; returns them for the caller either way.
    /// A body up to `maxEntryBytes` is read whole first; a larger one goes on to the caller as it
    /// arrives while a streaming storage writes it to a file, stored only if it ends whole.
    func admit(_ head: HTTPResponse, _ body: HTTPBody?, _ exchange: Exchange, requestTime: Date) async throws -> (HTTPResponse, HTTPBody?) {
        guard CacheStorability.isStorable(exchange.request, head, requestDirectives: exchange.directives) else { return (head, body) }
        let stored = Self.storedHead(head)
        let responseTime = clock()
        let vary = head.headerFields[values: .vary].joined(separator: ", ")
        let varyValues = CachedResponse.varyValues(exchange.request.headerFields, vary: vary.isEmpty ? nil : vary)
        let entry = { @Sendable (content: CachedResponse.Content) in
            CachedResponse(
                url: exchange.key, head: stored, content: content, requestTime: requestTime, responseTime: responseTime, varyValues: varyValues)
        }
        if let download = exchange.download {
            offer(download, head, entry, exchange)
            return (head, body)
        }
        guard let body else {
            save(entry(.data(Data())), exchange)
            return (head, HTTPBody())
        }
        let streaming = storage as? any StreamingCacheStorage
        var declared: Int?
        if case .known(let length) = body.length {
            declared = Int(length)
            if length > maxEntryBytes {
                guard let streaming, let writer = streaming.makeBodyWriter(for: exchange.key) else { return (head, body) }
                return (head, spool(body, prefix: [], upstream: body.makeAsyncIterator(), expected: declared, writer: writer, exchange, entry))
            }
            if length > exchange.limit { throw NetworkError.responseTooLarge(limit: exchange.limit) }
        }
        var data = Data()
        data.reserveCapacity(declared ?? 0)
        var upstream = body.makeAsyncIterator()
        while let chunk = try await upstream.next() {
            if data.count + chunk.count > maxEntryBytes, let streaming, let writer = streaming.makeBodyWriter(for: exchange.key) {
                // Longer than it may hold: what came so far, then the rest as it comes, to disk.
                let prefix = ArraySlice(data) + chunk
                return (head, spool(body, prefix: prefix, upstream: upstream, expected: declared, writer: writer, exchange, entry))
            }
            if data.count + chunk.count > exchange.limit { throw NetworkError.responseTooLarge(limit: exchange.limit) }
            data.append(contentsOf: chunk)
        }
        if data.count <= maxEntryBytes { save(entry(.data(data)), exchange) }
        return (head, CollectedAnswer.body(data, for: exchange.context?.collected))
    }

    /// A download's answer is not read here: a whole 200 in its own coding is offered to the
    /// store, which links the file once the download has it whole (nothing else is stored: a
    /// range, or bytes a transport may have decoded, are not the resource's representation).
    private func offer(
        _ download: DownloadStoreOffer, _ head: HTTPResponse, _ entry: @escaping @Sendable (CachedResponse.Content) -> CachedResponse,
        _ exchange: Exchange
    ) {
        let coding = head.headerFields[.contentEncoding]?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        guard head.status.code == 200, coding.isEmpty || coding == "identity", exchange.request.headerFields[.range] == nil,
            let disk = storage as? DiskCacheStorage
        else { return }
        download.offer { [self] finished in
            guard let file = disk.adopt(finished, key: exchange.key) else { return }
            logger.trace("downloaded file stored by a link", metadata: ["cache.outcome": "linked"])
            save(entry(.file(file)), exchange)
        }
    }

    /// `body` (of which `prefix` was read and `upstream` is the rest) for the caller, spooled by
    /// `writer`; once whole, stored as `entry` with the file as its body.
    private func spool(
        _ body: HTTPBody, prefix: ArraySlice<UInt8>, upstream: HTTPBody.AsyncIterator, expected: Int?, writer: CacheBodyWriter,
        _ exchange: Exchange, _ entry: @escaping @Sendable (CachedResponse.Content) -> CachedResponse
    ) -> HTTPBody {
        logger.trace("storing a large body as it streams", metadata: ["cache.outcome": "spool"])
        let spool = CacheBodySpool(prefix: prefix, upstream: upstream, expected: expected, writer: writer) { [self] file in
            save(entry(.file(file)), exchange)
        }
        return HTTPBody(spool, length: body.length, iterationBehavior: .single)
    }

    /// Stores `entry` in place of the variant the request selected. `freshened`: only its header
    /// fields changed (a 304) — a disk store writes that off the caller's path.
    func save(_ entry: CachedResponse, _ exchange: Exchange, freshened: Bool = false) {
        // A 304 updates what the lookup found (read again, it would cost a second read per hit).
        let current = freshened ? exchange.stored : storage.variants(for: exchange.key)
        let others = current.filter { !$0.matches(exchange.request.headerFields) && $0.varyValues != entry.varyValues }
        let variants = Array(([entry] + others).prefix(Self.maxVariants))
        if !freshened { Self.note(.stored, exchange.context) }
        if freshened, let disk = storage as? DiskCacheStorage { return disk.storeSoon(variants, for: exchange.key) }
        storage.store(variants, for: exchange.key)
    }

    /// A stored response as served: its fields with the current `Age`, its body unless HEAD.
    func serve(_ entry: CachedResponse, age: Double, method: HTTPRequest.Method, context: CallContext?) -> (HTTPResponse, HTTPBody?) {
        var head = entry.head
        head.headerFields[.age] = String(Int(min(age, 2_147_483_648).rounded(.down)))
        return (head, method == .head ? nil : body(entry.content, 0..<entry.bodyLength, context?.collected))
    }

    /// The bytes of a stored body in `range` as an HTTP body: the stored bytes (handed as they are
    /// to a `NetworkClient` call), or the file's chunks read as the caller asks for them — but for
    /// a `NetworkClient` call, which collects the body whole anyway, a file body up to
    /// `maxEntryBytes` is read in one go and handed over (one copy instead of two and a chunk
    /// buffer per 64 KiB).
    func body(_ content: CachedResponse.Content, _ range: Range<Int>, _ collected: CollectedAnswer?) -> HTTPBody {
        if case .file(let file) = content, collected != nil, range.count <= maxEntryBytes,
            let data = file.data(in: range)
        {
            return CollectedAnswer.body(data, for: collected)
        }
        return switch content {
        case .data(let data) where range.count == data.count:
            CollectedAnswer.body(data, for: collected)
        case .data(let data):
            HTTPBody(data[(data.startIndex + range.lowerBound)..<(data.startIndex + range.upperBound)])
        case .file(let file):
            HTTPBody(file.chunks(in: range), length: .known(Int64(range.count)), iterationBehavior: .multiple)
        }
    }

    /// A 206 with `range` of a stored complete response.
    func servePartial(_ entry: CachedResponse, _ range: ByteRange, age: Double, method: HTTPRequest.Method, context: CallContext?) -> (
        HTTPResponse, HTTPBody?
    ) {
        var (head, _) = serve(entry, age: age, method: method, context: context)
        head.status = .partialContent
        head.headerFields[.contentRange] = "bytes \(range.first)-\(range.last)/\(entry.bodyLength)"
        head.headerFields[.contentLength] = String(range.last - range.first + 1)
        return (head, method == .head ? nil : body(entry.content, range.first..<(range.last + 1), context?.collected))
    }

    /// `head` without the fields never stored.
    static func storedHead(_ head: HTTPResponse) -> HTTPResponse {
        var stored = head
        let unstored = unstored(head.headerFields)
        stored.headerFields = head.headerFields.filter { !unstored.contains($0.name.canonicalName) }
        return stored
    }

    /// Fields never stored (RFC 9111 §3.1): hop-by-hop ones, those `Connection` lists, proxy credentials.
    static func unstored(_ fields: HTTPFields) -> Set<String> {
        // Set-Cookie is never stored: a cookie is the session of whoever got it, not part of the content.
        var names: Set<String> = [
            "connection", "keep-alive", "proxy-connection", "te", "transfer-encoding", "upgrade",
            "proxy-authenticate", "proxy-authentication-info", "proxy-authorization", "set-cookie", "set-cookie2",
        ]
        for value in fields[values: .connection] {
            for name in value.split(separator: ",") { names.insert(name.trimmingCharacters(in: .whitespaces).lowercased()) }
        }
        return names
    }

    /// `entry` with the header fields of a 304 merged in (RFC 9111 §3.2) and new times.
    static func freshened(_ entry: CachedResponse, with head: HTTPResponse, requestTime: Date, responseTime: Date) -> CachedResponse {
        var updated = entry
        let skipped = unstored(head.headerFields).union(["content-length"])
        let incoming = head.headerFields.filter { !skipped.contains($0.name.canonicalName) }
        // The old Date and Age describe the old response; without new ones the time of validation counts.
        for name in [HTTPField.Name.date, .age] where head.headerFields[name] == nil {
            updated.fields.removeAll { $0.name.lowercased() == name.canonicalName }
        }
        let names = Set(incoming.map(\.name.canonicalName))
        updated.fields.removeAll { names.contains($0.name.lowercased()) }
        updated.fields += incoming.map { CachedResponse.Field(name: $0.name.rawName, value: $0.value) }
        updated.requestTime = requestTime
        updated.responseTime = responseTime
        return updated
    }

    /// A POST answer with explicit freshness whose `Content-Location` is its own URL is what a
    /// GET of that URL would get (RFC 9111 §4, RFC 9110 §9.3.3): stored for it.
    func storePost(_ answer: (HTTPResponse, HTTPBody?), key: String, limit: Int, context: CallContext?) async throws -> (HTTPResponse, HTTPBody?) {
        let (head, body) = answer
        let directives = CacheControl(head.headerFields[values: .cacheControl])
        guard [200, 203].contains(head.status.code), directives.has("max-age") || head.headerFields[.expires] != nil,
            !directives.noStore, let base = URL(string: key), let location = head.headerFields[.contentLocation],
            URL(string: location, relativeTo: base)?.absoluteURL.absoluteString == key
        else { return answer }
        if let body, case .known(let length) = body.length, length > maxEntryBytes { return answer }
        var data = Data()
        if let body { data = try await BodyCollector.collect(body, limit: limit) }
        guard data.count <= maxEntryBytes else { return (head, CollectedAnswer.body(data, for: context?.collected)) }
        let now = clock()
        storage.store(
            [CachedResponse(url: key, head: Self.storedHead(head), body: data, requestTime: now, responseTime: now, varyValues: [:])], for: key)
        return (head, CollectedAnswer.body(data, for: context?.collected))
    }

    /// Forgets what is stored for `key` and the same-origin `Location` / `Content-Location` of `head`.
    func invalidate(_ key: String, after head: HTTPResponse) {
        storage.remove(key)
        guard let base = URL(string: key) else { return }
        for name in [HTTPField.Name.location, .contentLocation] {
            guard let value = head.headerFields[name], let target = URL(string: value, relativeTo: base)?.absoluteURL,
                target.scheme == base.scheme, target.host == base.host, target.port == base.port
            else { continue }
            storage.remove(target.absoluteString)
        }
    }
}
