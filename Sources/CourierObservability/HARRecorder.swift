import Courier
public import CourierTransportCore
public import Foundation
public import HTTPTypes
public import OpenAPIRuntime
import Synchronization

/// A middleware that writes a HAR 1.2 log of every HTTP exchange (`.har`, the format browsers'
/// developer tools, Charles and HAR viewers open): one entry per exchange — each attempt of a
/// retried call, each redirect hop —, with its timings (`wait` to the head, `receive` to the last
/// byte), headers, query, cookies, and bodies up to ``maxBodyBytes`` (text as text, anything else
/// base64). Credentials never reach the file: `Authorization`, `Cookie`, `Set-Cookie` and API-key
/// fields, cookie values, credential query items and the endpoint's `secrets` are redacted.
///
/// Put it last among the middlewares, next to the transport, to see every exchange:
///
/// ```swift
/// let har = HARRecorder(file: URL(fileURLWithPath: "calls.har"))
/// let client = NetworkClient(configuration: .init(middlewares: [RetryMiddleware(), har]))
/// ```
///
/// The file is rewritten whole (a temporary file renamed over it, mode 0600) as each exchange
/// ends, so it is a complete log at every moment; an entry's response body is filled in when it
/// has been read (a body nobody read stays empty, its size -1).
public final class HARRecorder: ClientMiddleware, CallMiddleware, Sendable {
    /// Where the log is written.
    public let file: URL
    /// Request and response bodies are kept up to this many bytes (the rest is left out, noted
    /// in the entry's comment).
    public let maxBodyBytes: Int
    /// The log keeps the last this many exchanges (the earlier ones are left out, counted in the
    /// log's comment): a long-lived client's log stays bounded in memory and on disk, and each
    /// rewrite of the file stays bounded too.
    public let maxEntries: Int
    /// The entries kept and how many came before them.
    private let log = Mutex(HARLog.Log(entries: []))
    private let writing = Mutex<Void>(())

    /// A recorder writing to `file`.
    public init(file: URL, maxBodyBytes: Int = 64 << 10, maxEntries: Int = 1_000) {
        self.file = file
        self.maxBodyBytes = maxBodyBytes
        self.maxEntries = max(1, maxEntries)
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
        let redactor = Redactor(secrets: (context?.secrets ?? []) + Self.credentials(in: request.headerFields))
        let started = Date()
        let clock = ContinuousClock.now
        var sent = body
        var requestBody: (bytes: [UInt8], total: Int)?
        if let body {
            let (replayable, canReplay) = try await ReplayableBody.make(body)
            sent = replayable
            if canReplay, let replayable { requestBody = try await Self.prefix(of: replayable, limit: maxBodyBytes) }
        }
        let url = URLJoin.join(baseURL, request.path ?? "/")
        var entry = HAREntry(
            startedDateTime: started, request: HAREntry.Request(request, url: url, body: requestBody, redactor: redactor, limit: maxBodyBytes))
        let head: HTTPResponse
        let responseBody: HTTPBody?
        do {
            (head, responseBody) = try await next(request, sent, baseURL)
        } catch {
            entry.comment = "failed: \(NetworkError(error).logDescription)"
            entry.timings.wait = Self.milliseconds(since: clock)
            append(entry)
            throw error
        }
        entry.timings.wait = Self.milliseconds(since: clock)
        entry.connection = Self.connection(context?.recorder)
        entry.response = HAREntry.Response(head, redactor: redactor, baseURL: baseURL)
        let index = append(entry)
        guard let responseBody else {
            update(index) { $0.response?.content.size = 0 }
            return (head, nil)
        }
        let mimeType = head.headerFields[.contentType] ?? "application/octet-stream"
        let limit = maxBodyBytes
        let wrapped = HTTPBody(
            TeeBody(body: responseBody, limit: limit) { [weak self] kept, total in
                let received = Self.milliseconds(since: clock)
                self?.update(index) { entry in
                    entry.timings.receive = max(0, received - entry.timings.wait)
                    entry.response?.content = HAREntry.Content(bytes: kept, total: total, mimeType: mimeType, limit: limit, redactor: redactor)
                    entry.response?.bodySize = total
                }
            }, length: responseBody.length, iterationBehavior: responseBody.iterationBehavior)
        return (head, wrapped)
    }

    /// The connection the exchange under way went out on, when the call is recorded and its
    /// transport told it (`CallEvent.Kind.connection`).
    static func connection(_ recorder: CallRecorder?) -> String? {
        guard let recorder else { return nil }
        let events = recorder.events
        guard let attempt = events.last(where: { if case .attemptStarted = $0.kind { true } else { false } })?.attempt else { return nil }
        for event in events.reversed() where event.attempt == attempt {
            if case .connection(let number, _) = event.kind { return String(number) }
        }
        return nil
    }

    /// The credential values `fields` carry (a token, a cookie's value), so that a body echoing
    /// them — an echo service, a login answer repeating its token — is redacted too.
    static func credentials(in fields: HTTPFields) -> [String] {
        var values: [String] = []
        for field in fields where Redactor.defaultHeaders.contains(field.name.canonicalName) {
            values.append(field.value)
            if let last = field.value.split(separator: " ").last { values.append(String(last)) }  // `Bearer <token>`
            for pair in field.value.split(separator: ";") {
                if let value = pair.split(separator: "=", maxSplits: 1).dropFirst().first { values.append(String(value)) }
            }
        }
        return values.filter { $0.count >= 6 }
    }

    /// The first `limit` bytes of `body` and its whole length.
    static func prefix(of body: HTTPBody, limit: Int) async throws -> (bytes: [UInt8], total: Int) {
        var kept: [UInt8] = []
        var total = 0
        for try await chunk in body {
            total += chunk.count
            if kept.count < limit { kept += chunk.prefix(limit - kept.count) }
        }
        return (kept, total)
    }

    static func milliseconds(since start: ContinuousClock.Instant) -> Double {
        (ContinuousClock.now - start).seconds * 1000
    }

    /// Adds `entry`; returns its number (counted from the first entry ever, so it stays the
    /// entry's while earlier ones are left out).
    @discardableResult
    private func append(_ entry: HAREntry) -> Int {
        let index = log.withLock { log in
            log.entries.append(entry)
            if log.entries.count > maxEntries {
                let excess = log.entries.count - maxEntries
                log.entries.removeFirst(excess)
                log.dropped += excess
            }
            return log.dropped + log.entries.count - 1
        }
        write()
        return index
    }

    /// Changes the entry numbered `index`, if it is still kept.
    private func update(_ index: Int, _ change: (inout HAREntry) -> Void) {
        log.withLock { log in
            let position = index - log.dropped
            guard log.entries.indices.contains(position) else { return }
            change(&log.entries[position])
        }
        write()
    }

    /// The whole log, written to a temporary file beside ``file`` and renamed over it (0600).
    private func write() {
        writing.withLock { _ in
            let log = HARLog(log: self.log.withLock { $0 })
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            guard let data = try? encoder.encode(log) else { return }
            let temporary = file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).\(UUID().uuidString).tmp")
            guard FileManager.default.createFile(atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600]) else { return }
            if rename(temporary.path, file.path) != 0 { try? FileManager.default.removeItem(at: temporary) }
        }
    }

    /// A body passed on unchanged while its first `limit` bytes are kept; `ended` gets them and the
    /// whole length when it ends.
    struct TeeBody: AsyncSequence, Sendable {
        typealias Element = ArraySlice<UInt8>
        let body: HTTPBody
        let limit: Int
        let ended: @Sendable ([UInt8], Int) -> Void

        func makeAsyncIterator() -> Iterator {
            Iterator(inner: body.makeAsyncIterator(), limit: limit, ended: ended)
        }

        struct Iterator: AsyncIteratorProtocol {
            var inner: HTTPBody.Iterator
            let limit: Int
            let ended: @Sendable ([UInt8], Int) -> Void
            var kept: [UInt8] = []
            var total = 0
            var done = false

            mutating func next() async throws -> ArraySlice<UInt8>? {
                guard !done else { return nil }
                guard let chunk = try await inner.next() else {
                    done = true
                    ended(kept, total)
                    return nil
                }
                total += chunk.count
                if kept.count < limit { kept += chunk.prefix(limit - kept.count) }
                return chunk
            }
        }
    }
}
