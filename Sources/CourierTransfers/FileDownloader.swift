import Courier
import CourierTransportCore
import Foundation
import HTTPTypes
import Logging
import OpenAPIRuntime

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One `NetworkClient/download(_:to:options:progress:)`: the body streamed into the partial
/// file, resumed with `Range`/`If-Range` where it can be, put in place only when whole.
///
/// Every answer is checked before a byte of it is kept: a 206 must start where the partial ends
/// and name the same total, else the download starts over; a 200 to a resume means the file
/// changed or the server ignores ranges, so the partial is emptied first — two versions are never
/// spliced; a 416 to a resume is a complete partial only when its `Content-Range` total is the
/// partial's size.
struct FileDownloader {
    let client: NetworkClient
    let call: NetworkClient.Call
    let target: URL
    let options: DownloadOptions
    let progress: TransferProgress?

    /// A server that answers every resume inconsistently is not followed for ever.
    private static let maxRestarts = 2

    /// What the current request may write.
    private struct Expectation {
        /// The partial's size when the body is complete (nil: until the body ends).
        var end: Int64?
        /// The whole file's length, when known.
        var total: Int64?
    }

    func run() async throws(NetworkError) -> DownloadedFile {
        do {
            let file = try await download()
            progress?.end(success: true)
            return file
        } catch {
            progress?.end(success: false)
            throw error
        }
    }

    /// What one download keeps between its requests.
    private struct Run {
        var partial: PartialDownload
        /// The partial is the user's own FILE, taken as the beginning (`fromExistingBytes`).
        var adopted: Bool
        var state: DownloadState?
        /// Bytes received by this download.
        var fetched: Int64 = 0
        /// Bytes received since the partial was last emptied: the rest was kept from before.
        var fetchedIntoPartial: Int64 = 0
        var attempt = 1
        var restarts = 0
        /// The SHA-256 of the partial's bytes so far, kept while a cache waits for the file.
        var hasher: (SHA256Hasher, bytes: Int64)?
        /// Put in place: nothing to clean up.
        var finished = false

        /// A download that did not finish leaves only what resuming needs.
        func abandon() {
            if adopted && fetchedIntoPartial == 0 {
                // The user's own FILE, taken as the beginning: back under its name, untouched.
                partial.restoreAdopted()
            } else if partial.size == 0, !FileManager.default.fileExists(atPath: partial.statePath) {
                // Nothing worth resuming (an error status, a refused connection): no files left behind.
                partial.discard()
            }
        }
    }

    /// What to do with an answer's head.
    private enum Decision {
        /// The partial is already the whole file.
        case complete
        /// The partial was emptied: ask again.
        case again
        /// Write the body, within these bounds.
        case write(Expectation)
    }

    private var url: String { URLJoin.join(call.built.baseURL, call.built.request.path ?? "/") }

    private func download() async throws(NetworkError) -> DownloadedFile {
        let expectedHash = try options.checksum.map(Self.parseChecksum)
        var run = try begin()
        defer {
            if !run.finished { run.abandon() }
            run.partial.release()
        }
        // A disk cache among the middlewares may keep the file (by a link, once it is whole and hashed).
        let cache = client.configuration.middlewares.isEmpty ? nil : DownloadStoreOffer()
        try await fetch(&run, cache: cache)
        return try complete(&run, expectedHash: expectedHash, cache: cache)
    }

    /// Locks the partial and decides what of it is kept (``DownloadOptions/resume``).
    private func begin() throws(NetworkError) -> Run {
        var partial = try PartialDownload.lock(target: target.path, durability: options.durability)
        var adopted = false
        if options.resume == .fromExistingBytes { (partial, adopted) = try partial.adoptingTarget() }
        var run = Run(partial: partial, adopted: adopted, state: partial.readState())
        switch options.resume {
        case .never:
            try run.partial.reset()
            run.state = nil
        case .whenValid:
            if let kept = run.state, kept.isFor(url), kept.ifRange != nil, kept.length.map({ partial.size <= $0 }) ?? true {
                break
            }
            try run.partial.reset()
            run.state = nil
        case .fromExistingBytes:
            if let kept = run.state, !kept.isFor(url) || kept.ifRange == nil {
                try run.partial.reset()
                run.state = nil
            }
        }
        return run
    }

    /// Asks until the partial holds the whole file: resumes where it ends, starts over when an
    /// answer does not fit, and resumes a body cut off while the retry policy allows.
    private func fetch(_ run: inout Run, cache: DownloadStoreOffer?) async throws(NetworkError) {
        let policy = options.retry ?? client.configuration.middlewares.lazy.compactMap { ($0 as? RetryMiddleware)?.policy }.first
        while true {
            try Self.checkCancellation()
            let offset = run.partial.size
            var request = call
            request.built.request.headerFields[.acceptEncoding] = "identity"
            if offset > 0 {
                request.built.request.headerFields[.range] = "bytes=\(offset)-"
                if let validator = run.state?.ifRange { request.built.request.headerFields[.ifRange] = validator }
            }
            let (head, body) = try await Self.open(request, client, options, cache: cache)
            let expectation: Expectation
            switch try decide(head, offset: offset, &run) {
            case .complete: return
            case .again: continue
            case .write(let bounds): expectation = bounds
            }
            if let maxBytes = options.maxBytes, let total = expectation.total, total > maxBytes {
                throw .responseTooLarge(limit: Int(clamping: maxBytes))
            }
            progress?.begin(done: run.partial.size, expected: expectation.total)
            if cache?.isPending == true, run.partial.size == 0 { run.hasher = (SHA256Hasher(), 0) }
            do {
                if let body { try await write(body, within: expectation, &run) }
                try Self.checkCancellation()
                if let end = expectation.end, run.partial.size < end { throw URLError(.networkConnectionLost) }
                if let total = expectation.total, run.partial.size < total { continue }  // a shorter range than asked
                return
            } catch {
                try await resume(after: NetworkError(error), policy: policy, &run)
            }
        }
    }

    /// Checks an answer's head against the partial before a byte of its body is kept.
    private func decide(_ head: HTTPResponse, offset: Int64, _ run: inout Run) throws(NetworkError) -> Decision {
        switch head.status.code {
        case 416 where offset > 0:
            let range = head.headerFields[.contentRange].flatMap(ContentRange.init)
            if let total = range?.total, total == offset, run.state?.length.map({ $0 == total }) ?? true { return .complete }
            try restart(&run)
            return .again
        case 206 where offset > 0:
            // The part must be of the same version: its ETag, when it sends one, the one the
            // partial was written with (RFC 9110 §15.3.7.3; a server or cache that ignored
            // If-Range would otherwise splice two versions).
            let state = run.state
            let sameVersion = head.headerFields[.eTag].map { etag in state.map { $0.etag == nil || $0.etag == etag } ?? true } ?? true
            guard let range = head.headerFields[.contentRange].flatMap(ContentRange.init), range.first == offset,
                let last = range.last, state?.length.map({ range.total == nil || range.total == $0 }) ?? true, sameVersion,
                !Self.isEncoded(head)
            else {
                try restart(&run)
                return .again
            }
            let expectation = Expectation(end: last + 1, total: range.total ?? state?.length)
            if state == nil {
                // Bytes taken as they were (`fromExistingBytes`): from now on, resumable as any.
                let fresh = Self.state(for: url, head, length: expectation.total)
                try run.partial.writeState(fresh)
                run.state = fresh
            }
            return .write(expectation)
        case 200...299 where head.status.code != 206:
            if offset > 0 {
                try run.partial.reset()
                run.fetchedIntoPartial = 0
            }
            // A body the server encoded although identity was asked (and a transport may have
            // decoded): its length and offsets are not the file's, so it is taken whole and not
            // resumable.
            let encoded = Self.isEncoded(head)
            let length = encoded ? nil : head.headerFields[.contentLength].flatMap { WireNumber.digits($0) }.map(Int64.init)
            let fresh = Self.state(for: url, encoded ? HTTPResponse(status: head.status) : head, length: length)
            // Written before the first body byte: a process killed mid-body leaves what resuming needs.
            try run.partial.writeState(fresh)
            run.state = fresh
            return .write(Expectation(end: length, total: length))
        default:
            // A 206 nobody asked for, a 304, a 1xx or an unfollowed 3xx: not this file.
            throw .invalidResponse
        }
    }

    /// Appends `body` to the partial, within the expectation and `maxBytes`.
    private func write(_ body: HTTPBody, within expectation: Expectation, _ run: inout Run) async throws {
        for try await chunk in body {
            let after = run.partial.size + Int64(chunk.count)
            if let end = expectation.end, after > end { throw NetworkError.invalidResponse }
            if let maxBytes = options.maxBytes, after > maxBytes { throw NetworkError.responseTooLarge(limit: Int(clamping: maxBytes)) }
            if run.hasher?.bytes == run.partial.size {
                run.hasher?.0.update(chunk)
                run.hasher?.bytes = after
            }
            try run.partial.append(chunk)
            run.fetched += Int64(chunk.count)
            run.fetchedIntoPartial += Int64(chunk.count)
            progress?.add(chunk.count)
        }
    }

    /// A body that failed: resumed after the policy's backoff when it was only cut off and the
    /// partial can be resumed, else the failure ends the download.
    private func resume(after failure: NetworkError, policy: RetryPolicy?, _ run: inout Run) async throws(NetworkError) {
        if Task.isCancelled || failure == .taskCancelled { throw .taskCancelled }
        if case .invalidResponse = failure { run.partial.discard() }
        guard case .networkError(let urlError) = failure, let policy, policy.retryableErrors.contains(urlError.code),
            run.attempt < policy.maxAttempts, run.state?.ifRange != nil
        else { throw failure }
        client.configuration.logger.notice(
            "download cut off: resuming",
            metadata: ["bytes": "\(run.partial.size)", "attempt": "\(run.attempt)", "reason": "\(failure.logDescription)"])
        let wait = policy.backoff(retry: run.attempt, random: Double.random(in: 0..<1))
        run.attempt += 1
        do { try await Task.sleep(for: wait) } catch { throw .taskCancelled }
    }

    /// The whole partial checked (length, checksum), hashed for a waiting cache, and put in place.
    private func complete(_ run: inout Run, expectedHash: String?, cache: DownloadStoreOffer?) throws(NetworkError) -> DownloadedFile {
        let partial = run.partial
        if let total = run.state?.length, partial.size != total { throw .invalidResponse }
        var hash: String?
        if let expectedHash {
            let actual = try partial.sha256()
            guard actual == expectedHash else {
                // Never delete what the user had (an adopted FILE); a download of ours is worthless.
                if run.adopted { run.finished = run.fetchedIntoPartial > 0 } else { partial.discard() }
                throw .fileError(.checksumMismatch(expected: "sha256:" + expectedHash, actual: "sha256:" + actual))
            }
            hash = actual
        }
        let size = partial.size
        // The cache's hash: the one the checksum needed, the one kept while writing, or read back.
        var cached: String?
        if cache?.isPending == true {
            if let hasher = run.hasher, hasher.bytes == size {
                cached = hasher.0.finalize()
            } else if let hash {
                cached = hash
            } else {
                cached = try partial.sha256()
            }
        }
        let identity = partial.identity()
        try partial.finish()
        run.finished = true
        if let cache, let cached, let identity {
            cache.complete(
                FinishedDownload(path: target.path, device: identity.device, inode: identity.inode, length: Int(clamping: size), sha256: cached))
        }
        return DownloadedFile(
            url: target, bytes: size, resumedFrom: size - run.fetchedIntoPartial, bytesFetched: run.fetched, sha256: hash)
    }

    /// Opens one request, where a disk cache among its middlewares may offer to keep the file.
    private static func open(
        _ request: NetworkClient.Call, _ client: NetworkClient, _ options: DownloadOptions, cache: DownloadStoreOffer?
    ) async throws(NetworkError) -> (HTTPResponse, HTTPBody?) {
        try await client.openStream(request, idleTimeout: options.idleTimeout, accepting: [416], downloadOffer: cache)
    }

    /// The answer did not fit the partial: empty it and ask again from the first byte.
    private func restart(_ run: inout Run) throws(NetworkError) {
        run.restarts += 1
        guard run.restarts <= Self.maxRestarts else { throw .invalidResponse }
        try run.partial.reset()
        run.state = nil
        run.fetchedIntoPartial = 0
    }

    /// The state for a fresh body: a strong ETag (a weak one is kept only to say "not resumable"),
    /// and `Last-Modified` only when it is strong — the answer's `Date` a second or more later
    /// (RFC 9110 §8.8.2.2).
    private static func state(for url: String, _ head: HTTPResponse, length: Int64?) -> DownloadState {
        var lastModified = head.headerFields[.lastModified]
        if let text = lastModified {
            let modified = HTTPDate.parse(text)
            let date = head.headerFields[.date].flatMap(HTTPDate.parse)
            if let modified, let date, date.timeIntervalSince(modified) >= 1 {} else { lastModified = nil }
        }
        return DownloadState(url: url, etag: head.headerFields[.eTag], lastModified: lastModified, length: length)
    }

    /// Whether the answer's body is content-coded (gzip …), so its bytes are not the file's.
    private static func isEncoded(_ head: HTTPResponse) -> Bool {
        guard let coding = head.headerFields[.contentEncoding]?.trimmingCharacters(in: .whitespaces).lowercased() else { return false }
        return !coding.isEmpty && coding != "identity"
    }

    /// `sha256:HEX` → the 64 lowercase hex digits.
    static func parseChecksum(_ text: String) throws(NetworkError) -> String {
        let parts = text.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "sha256", parts[1].count == 64,
            parts[1].allSatisfy(\.isHexDigit)
        else { throw .fileError(.invalidChecksum(text)) }
        return parts[1].lowercased()
    }

    private static func checkCancellation() throws(NetworkError) {
        if Task.isCancelled { throw .taskCancelled }
    }
}
