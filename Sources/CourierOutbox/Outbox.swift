public import Courier
import CourierTransportCore
public import Foundation
public import HTTPTypes
public import Logging
import Synchronization

/// Writes that are never lost: each is journaled to disk with its idempotency key before its
/// first attempt, and leaves the outbox only on a final answer.
///
/// - A 2xx or 3xx answer delivers it (the entry is removed).
/// - A 4xx other than 408, 409, 425 and 429 — or a request that can never be sent — fails it:
///   it is kept as ``OutboxEntry/State/failed`` with its answer, for the app to show, until
///   ``drop(_:)`` or ``retry(_:headers:)``.
/// - A transport error, 408, 409, 425, 429 or 5xx keeps it queued, with a backoff (or the
///   server's `Retry-After`) that ``run(headers:)`` waits for.
///
/// Entries go in order (a later write never overtakes an earlier one still queued) with the same
/// key every time, through the client's middlewares like any call — a token middleware signs
/// each replay afresh. Credentials never reach the disk (``OutboxWrite/secretHeaders``).
///
/// Several processes may share the directory: a flush holds an advisory lock on it, so one
/// entry is never in flight twice, and a second flush waits for the first, then sends what is
/// left. The journal survives `kill -9` at any instant (<doc:WritesNeverLost>).
///
/// ```swift
/// let outbox = try Outbox(directory: appSupport.appendingPathComponent("outbox"), client: client)
/// switch try await outbox.send(try OutboxWrite(NotesAPI.create(note))) {
/// case .delivered(_, let response): show(response)
/// case .queued: showBadge("will be sent when you are online")
/// case .failed(let entry, _, let error): showError(entry, error)
/// }
/// // When the network comes back (NWPathMonitor on iOS, a pull to refresh, app launch):
/// Task { await outbox.run() }
/// ```
public final class Outbox: Sendable {
    /// Where the entries live.
    public let directory: URL
    /// How much the outbox holds.
    public let limits: OutboxLimits
    /// How minted keys are written, and in which field.
    public let keys: NetworkClient.IdempotencyKeys
    private let client: NetworkClient
    private let journal: OutboxJournal
    /// The journal's blocking file work (syncs to disk), off the cooperative pool, in order.
    private let worker = SerialWorker(name: "courier.outbox")
    private let logger: Logger
    private let shared = Mutex(Shared())

    private struct Shared {
        /// Secret header fields of writes this process took, by entry (never on disk).
        var secrets: [String: HTTPFields] = [:]
        var subscribers: [UInt64: AsyncStream<OutboxEvent>.Continuation] = [:]
        var nextSubscriber: UInt64 = 0
        /// The last id's time part: ids made by this process only go up.
        var lastStamp: UInt64 = 0
    }

    /// An outbox in `directory` (created 0700 if missing; refused when another user's, writable
    /// by others or a symbolic link) that delivers through `client`.
    public init(
        directory: URL, client: NetworkClient, limits: OutboxLimits = OutboxLimits(),
        keys: NetworkClient.IdempotencyKeys = NetworkClient.IdempotencyKeys(), logger: Logger = Logger(label: "courier.outbox")
    ) throws(OutboxError) {
        self.directory = directory
        self.limits = limits
        self.keys = keys
        self.client = client
        self.logger = logger
        self.journal = try OutboxJournal(directory: directory, limits: limits)
    }

    deinit {
        for continuation in shared.withLock({ $0.subscribers.values }) { continuation.finish() }
    }

    // MARK: Taking writes

    /// Journals `write` (minting its key unless it has one) without sending it.
    ///
    /// - Throws: ``OutboxError/full(entries:bytes:)`` when the outbox is full,
    ///   ``OutboxError/invalidWrite(_:)``, ``OutboxError/journal(path:errno:)``.
    @discardableResult
    public func enqueue(_ write: OutboxWrite) async throws(OutboxError) -> OutboxEntry {
        let id = nextID()
        let (entry, body, secret) = try await io { [keys, limits] () throws(OutboxError) in
            try OutboxIntake.entry(for: write, id: id, keys: keys, limits: limits)
        }
        try await io { [journal] () throws(OutboxError) in try journal.add(entry, body: body) }
        if !secret.isEmpty { shared.withLock { $0.secrets[entry.id] = secret } }
        publish(.queued(entry))
        return entry
    }

    /// Journals `write`, then sends it now — after every earlier write still queued, in order;
    /// `headers` go on each entry sent (credentials kept off the disk).
    public func send(_ write: OutboxWrite, headers: HTTPFields = [:]) async throws(OutboxError) -> OutboxOutcome {
        let entry = try await enqueue(write)
        let (_, outcome) = await flushing(through: entry.id, headers: headers)
        if let outcome { return outcome }
        let current = await io { [journal] in journal.read(entry.id)?.entry } ?? entry
        return .queued(current, error: nil)
    }

    // MARK: Delivering

    /// Sends the queued entries now, in order, each with its key and `headers` (a token that was
    /// kept off the disk): failed ones are skipped, and the flush stops at the first that fails
    /// transiently (it and every later one stay queued, order kept). Waits for a flush another
    /// process (or task) is running, then sends what is left.
    @discardableResult
    public func flush(headers: HTTPFields = [:]) async -> OutboxFlushReport {
        await flushing(through: nil, headers: headers).report
    }

    /// Flushes until the outbox holds no queued entry, waiting between flushes for the first
    /// entry's backoff or `Retry-After`; returns when nothing is queued or the task is cancelled.
    /// An app runs it when the network comes back.
    public func run(headers: HTTPFields = [:]) async {
        while !Task.isCancelled {
            let report = await flushing(through: nil, headers: headers).report
            guard report.stillQueued > 0 else { return }
            let next = await io { [journal] in report.stoppedAt.flatMap { journal.read($0)?.entry.notBefore } }
            let wait = max(0.05, min((next ?? Date().addingTimeInterval(1)).timeIntervalSinceNow, OutboxBackoff.maxDelay))
            do { try await Task.sleep(for: .milliseconds(Int(wait * 1000))) } catch { return }
        }
    }

    /// Puts the failed entry `id` back in the queue, in its place, and sends it now (after any
    /// earlier queued entry).
    public func retry(_ id: String, headers: HTTPFields = [:]) async throws(OutboxError) -> OutboxOutcome {
        try await underFlushLock { () throws(OutboxError) in
            try await self.io { [journal] () throws(OutboxError) in
                guard let (found, body) = journal.read(id) else { throw .notFound(id) }
                guard found.state == .failed else { return }
                var entry = found
                entry.state = .queued
                entry.answer = nil
                entry.notBefore = nil
                try journal.write(entry, body: body)
            }
        }
        let (_, outcome) = await flushing(through: id, headers: headers)
        if let outcome { return outcome }
        guard let entry = await io({ [journal] in journal.read(id)?.entry }) else { throw .notFound(id) }
        return .queued(entry, error: nil)
    }

    // MARK: Reading and dropping

    /// Every entry, queued and failed, in queue order.
    public func entries() async -> [OutboxEntry] {
        await io { [journal] in journal.ids().compactMap { journal.read($0)?.entry } }
    }

    /// Removes entry `id` (queued or failed) for good, waiting for a flush under way to end.
    public func drop(_ id: String) async throws(OutboxError) {
        try await underFlushLock { () throws(OutboxError) in
            guard try await self.io({ [journal] () throws(OutboxError) in try journal.remove(id) }) else { throw .notFound(id) }
        }
        shared.withLock { $0.secrets[id] = nil }
        publish(.dropped(id: id))
    }

    /// What happens to the writes from now on: each call gives a stream of its own (the newest
    /// 256 events kept for a slow reader).
    public func events() -> AsyncStream<OutboxEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: OutboxEvent.self, bufferingPolicy: .bufferingNewest(256))
        let id = shared.withLock { shared in
            let id = shared.nextSubscriber
            shared.nextSubscriber += 1
            shared.subscribers[id] = continuation
            return id
        }
        continuation.onTermination = { [weak self] _ in _ = self?.shared.withLock { $0.subscribers.removeValue(forKey: id) } }
        return stream
    }

    // MARK: The flush

    /// Sends queued entries in order up to `last` (all when nil) under the flush lock; the
    /// outcome of entry `last` when it was tried.
    private func flushing(through last: String?, headers: HTTPFields) async -> (report: OutboxFlushReport, outcome: OutboxOutcome?) {
        var report = OutboxFlushReport()
        var outcome: OutboxOutcome?
        do {
            try await underFlushLock { () throws(OutboxError) in
                await self.io { [journal] in journal.removeStaleTemporaries() }
                var skipped = Set<String>()
                while !Task.isCancelled {
                    let next = await self.io { [journal, skipped] in Self.nextQueued(in: journal, skipping: skipped, through: last) }
                    skipped.formUnion(next.skipped)
                    guard let (entry, body) = next.entry else { break }
                    let result = await self.attempt(entry, body: body, headers: headers)
                    if entry.id == last { outcome = result }
                    switch result {
                    case .delivered: report.delivered.append(entry.id)
                    case .failed: report.failed.append(entry.id)
                    case .queued: report.stoppedAt = entry.id
                    }
                    if case .queued = result { break }
                }
            }
        } catch {
            logger.error("outbox flush not run: \(error)")
        }
        report.stillQueued = await io { [journal] in journal.ids().count { journal.read($0)?.entry.state == .queued } }
        return (report, outcome)
    }

    /// The first queued entry not in `skipped` (and not after `last`), and the failed ones passed.
    private static func nextQueued(
        in journal: OutboxJournal, skipping skipped: Set<String>, through last: String?
    ) -> (entry: (OutboxEntry, Data)?, skipped: Set<String>) {
        var passed = Set<String>()
        for id in journal.ids() where !skipped.contains(id) {
            if let last, id > last { break }
            guard let (entry, body) = journal.read(id) else {
                journal.setAside(id)
                continue
            }
            if entry.state == .queued { return ((entry, body), passed) }
            passed.insert(id)
        }
        return (nil, passed)
    }

    /// One attempt of `entry`: counted on disk first, then sent, then settled by its answer.
    private func attempt(_ entry: OutboxEntry, body: Data, headers: HTTPFields) async -> OutboxOutcome {
        var entry = entry
        entry.attempts = min(entry.attempts + 1, Int(Int32.max))
        do {
            try await io { [journal, entry] () throws(OutboxError) in try journal.write(entry, body: body) }
        } catch {
            logger.error("outbox entry \(entry.id) not sent: its attempt could not be journaled (\(error))")
            return .queued(entry, error: Self.fileError(error))
        }
        let secret = shared.withLock { $0.secrets[entry.id] } ?? HTTPFields()
        guard let endpoint = OutboxEndpoint(entry, body: body, adding: [secret, headers]) else {
            return await settle(entry, body: body, answer: nil, error: .invalidURL, final: true)
        }
        do {
            let response = try await client.response(toItsOwnServer: endpoint)
            let code = response.statusCode
            if (200..<400).contains(code) { return await delivered(entry, response) }
            let error = response.statusError ?? StatusMapping.remote(code, response.body)
            return await settle(entry, body: body, answer: response, error: error, final: !OutboxBackoff.isTransient(code))
        } catch {
            return await settle(entry, body: body, answer: nil, error: error, final: OutboxBackoff.isFinal(error))
        }
    }

    private func delivered(_ entry: OutboxEntry, _ response: NetworkResponse) async -> OutboxOutcome {
        do {
            _ = try await io { [journal] () throws(OutboxError) in try journal.remove(entry.id) }
        } catch {
            // Sent again at the next flush, with the same key: the server answers it once.
            logger.error("outbox entry \(entry.id) delivered but not removed (\(error))")
        }
        shared.withLock { $0.secrets[entry.id] = nil }
        publish(.delivered(entry, response))
        return .delivered(entry, response)
    }

    /// Keeps `entry` as failed (`final`) or queued with a backoff, and tells the subscribers.
    private func settle(_ entry: OutboxEntry, body: Data, answer: NetworkResponse?, error: NetworkError, final: Bool) async -> OutboxOutcome {
        var entry = entry
        // Within what the reader accepts (4 KiB): an error's text can quote the server.
        entry.lastError = String((answer.map { "HTTP \($0.statusCode)" } ?? error.description).prefix(512))
        if final {
            entry.state = .failed
            entry.answer = answer.map { OutboxEntry.Answer.kept(status: $0.statusCode, headerFields: $0.headers, body: $0.body) }
        } else if error != .taskCancelled {
            entry.notBefore = Date().addingTimeInterval(OutboxBackoff.delay(attempts: entry.attempts, retryAfter: answer?.head.retryAfterSeconds))
        }
        do {
            try await io { [journal, entry] () throws(OutboxError) in try journal.write(entry, body: body) }
        } catch {
            logger.error("outbox entry \(entry.id): its state could not be journaled (\(error))")
        }
        if final {
            shared.withLock { $0.secrets[entry.id] = nil }
            publish(.failed(entry))
            return .failed(entry, answer: answer, error: error)
        }
        publish(.stillQueued(entry))
        return .queued(entry, error: error)
    }

    // MARK: Helpers

    /// Runs `body` holding the directory's flush lock (waiting for whoever holds it).
    private func underFlushLock<T>(_ body: () async throws(OutboxError) -> T) async throws(OutboxError) -> T {
        let lock = try FileLock(journal.directory + ".flush.lock")
        defer { lock.unlock() }
        do { try await lock.lock() } catch { throw .journal(path: journal.directory + ".flush.lock", errno: ECANCELED) }
        return try await body()
    }

    /// `job` on the outbox's own thread (it blocks: file syncs), awaited without blocking a thread.
    private func io<T: Sendable>(_ job: @escaping @Sendable () throws(OutboxError) -> T) async throws(OutboxError) -> T {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, OutboxError>, Never>) in
            worker.submit { continuation.resume(returning: Result { () throws(OutboxError) -> T in try job() }) }
        }
        return try result.get()
    }

    private func io<T: Sendable>(_ job: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
            worker.submit { continuation.resume(returning: job()) }
        }
    }

    /// A journal failure as the `NetworkError` a caller of `send` sees.
    private static func fileError(_ error: OutboxError) -> NetworkError {
        guard case .journal(let path, let code) = error else { return .fileError(.ioFailed(path: "outbox", operation: "write", errno: EIO)) }
        return .fileError(code == ENOSPC ? .diskFull(path: path) : .ioFailed(path: path, operation: "write", errno: code))
    }

    private func publish(_ event: OutboxEvent) {
        for continuation in shared.withLock({ Array($0.subscribers.values) }) { continuation.yield(event) }
    }

    /// A new entry id: 16 hex digits of nanoseconds since 1970 (rising in this process), `-`, 8 random.
    private func nextID() -> String {
        let now = UInt64(max(0, Date().timeIntervalSince1970 * 1e9))
        let stamp = shared.withLock { shared in
            shared.lastStamp = max(shared.lastStamp + 1, now)
            return shared.lastStamp
        }
        let time = String(stamp, radix: 16)
        let random = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        return String(repeating: "0", count: 16 - time.count) + time + "-" + String(repeating: "0", count: 8 - random.count) + random
    }
}
