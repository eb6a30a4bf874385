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

    private func download() async throws(NetworkError) -> DownloadedFile {
        let expectedHash = try options.checksum.map(Self.parseChecksum)
        let path = target.path
        var partial = try PartialDownload.lock(target: path, durability: options.durability)
        var adopted = false
        if options.resume == .fromExistingBytes { (partial, adopted) = try partial.adoptingTarget() }
        var finished = false
        var fetchedIntoPartial: Int64 = 0
        defer {
            if !finished {
                if adopted && fetchedIntoPartial == 0 {
                    // The user's own FILE, taken as the beginning: back under its name, untouched.
                    partial.restoreAdopted()
                } else if partial.size == 0, !FileManager.default.fileExists(atPath: partial.statePath) {
                    // Nothing worth resuming (an error status, a refused connection): no files left behind.
                    partial.discard()
                }
            }
            partial.release()
        }
        let url = URLJoin.join(call.built.baseURL, call.built.request.path ?? "/")
        var state = partial.readState()
        switch options.resume {
        case .never:
            try partial.reset()
            state = nil
        case .whenValid:
            if let kept = state, kept.isFor(url), kept.ifRange != nil, kept.length.map({ partial.size <= $0 }) ?? true {
                break
            }
            try partial.reset()
            state = nil
        case .fromExistingBytes:
            if let kept = state, !kept.isFor(url) || kept.ifRange == nil {
                try partial.reset()
                state = nil
            }
        }
        // Bytes fetched since the partial was last emptied: the rest of the file was kept from before.
        fetchedIntoPartial = 0
        var fetched: Int64 = 0
        var attempt = 1
        var restarts = 0
        let policy = options.retry ?? client.configuration.middlewares.lazy.compactMap { ($0 as? RetryMiddleware)?.policy }.first
        // A disk cache among the middlewares may keep the file (by a link, once it is whole and hashed).
        let cache = client.configuration.middlewares.isEmpty ? nil : DownloadStoreOffer()
        // The SHA-256 of the partial's bytes so far, kept while the cache waits for the file.
        var hasher: (SHA256Hasher, bytes: Int64)?
        loop: while true {
            try Self.checkCancellation()
            let offset = partial.size
            var request = call
            request.built.request.headerFields[.acceptEncoding] = "identity"
            if offset > 0 {
                request.built.request.headerFields[.range] = "bytes=\(offset)-"
                if let validator = state?.ifRange { request.built.request.headerFields[.ifRange] = validator }
            }
            let (head, body) = try await Self.open(request, client, options, cache: cache)
            var expectation: Expectation
            switch head.status.code {
            case 416 where offset > 0:
                _ = body
                let range = head.headerFields[.contentRange].flatMap(ContentRange.init)
                if let total = range?.total, total == offset, state?.length.map({ $0 == total }) ?? true { break loop }
                try restart(partial, &state, &restarts, &fetchedIntoPartial)
                continue loop
            case 206 where offset > 0:
                // The part must be of the same version: its ETag, when it sends one, the one the
                // partial was written with (RFC 9110 §15.3.7.3; a server or cache that ignored
                // If-Range would otherwise splice two versions).
                let sameVersion = head.headerFields[.eTag].map { etag in state.map { $0.etag == nil || $0.etag == etag } ?? true } ?? true
                guard let range = head.headerFields[.contentRange].flatMap(ContentRange.init), range.first == offset,
                    let last = range.last, state?.length.map({ range.total == nil || range.total == $0 }) ?? true, sameVersion,
                    !Self.isEncoded(head)
                else {
                    _ = body
                    try restart(partial, &state, &restarts, &fetchedIntoPartial)
                    continue loop
                }
                expectation = Expectation(end: last + 1, total: range.total ?? state?.length)
                if state == nil {
                    // Bytes taken as they were (`fromExistingBytes`): from now on, resumable as any.
                    let fresh = Self.state(for: url, head, length: expectation.total)
                    try partial.writeState(fresh)
                    state = fresh
                }
            case 200...299 where head.status.code != 206:
                if offset > 0 {
                    try partial.reset()
                    fetchedIntoPartial = 0
                }
                // A body the server encoded although identity was asked (and a transport may have
                // decoded): its length and offsets are not the file's, so it is taken whole and not
                // resumable.
                let encoded = Self.isEncoded(head)
                let length = encoded ? nil : head.headerFields[.contentLength].flatMap { WireNumber.digits($0) }.map(Int64.init)
                let fresh = Self.state(for: url, encoded ? HTTPResponse(status: head.status) : head, length: length)
                // Written before the first body byte: a process killed mid-body leaves what resuming needs.
                try partial.writeState(fresh)
                state = fresh
                expectation = Expectation(end: length, total: length)
            default:
                // A 206 nobody asked for, a 304, a 1xx or an unfollowed 3xx: not this file.
                _ = body
                throw .invalidResponse
            }
            if let maxBytes = options.maxBytes, let total = expectation.total, total > maxBytes {
                throw .responseTooLarge(limit: Int(clamping: maxBytes))
            }
            progress?.begin(done: partial.size, expected: expectation.total)
            if cache?.isPending == true, partial.size == 0 { hasher = (SHA256Hasher(), 0) }
            do {
                if let body {
                    for try await chunk in body {
                        let after = partial.size + Int64(chunk.count)
                        if let end = expectation.end, after > end { throw NetworkError.invalidResponse }
                        if let maxBytes = options.maxBytes, after > maxBytes { throw NetworkError.responseTooLarge(limit: Int(clamping: maxBytes)) }
                        if hasher?.bytes == partial.size {
                            hasher?.0.update(chunk)
                            hasher?.bytes = after
                        }
                        try partial.append(chunk)
                        fetched += Int64(chunk.count)
                        fetchedIntoPartial += Int64(chunk.count)
                        progress?.add(chunk.count)
                    }
                }
                try Self.checkCancellation()
                if let end = expectation.end, partial.size < end { throw URLError(.networkConnectionLost) }
                if let total = expectation.total, partial.size < total { continue loop }  // a shorter range than asked
                break loop
            } catch {
                let failure = NetworkError(error)
                if Task.isCancelled || failure == .taskCancelled { throw .taskCancelled }
                if case .invalidResponse = failure { partial.discard() }
                guard case .networkError(let urlError) = failure, let policy, policy.retryableErrors.contains(urlError.code),
                    attempt < policy.maxAttempts, state?.ifRange != nil
                else { throw failure }
                client.configuration.logger.notice(
                    "download cut off: resuming",
                    metadata: ["bytes": "\(partial.size)", "attempt": "\(attempt)", "reason": "\(failure.logDescription)"])
                let wait = policy.backoff(retry: attempt, random: Double.random(in: 0..<1))
                attempt += 1
                do { try await Task.sleep(for: wait) } catch { throw .taskCancelled }
            }
        }
        if let total = state?.length, partial.size != total { throw .invalidResponse }
        var hash: String?
        if let expectedHash {
            let actual = try partial.sha256()
            guard actual == expectedHash else {
                // Never delete what the user had (an adopted FILE); a download of ours is worthless.
                if adopted { finished = fetchedIntoPartial > 0 } else { partial.discard() }
                throw .fileError(.checksumMismatch(expected: "sha256:" + expectedHash, actual: "sha256:" + actual))
            }
            hash = actual
        }
        let size = partial.size
        // The cache's hash: the one the checksum needed, the one kept while writing, or read back.
        var cached: String?
        if cache?.isPending == true {
            if let hasher, hasher.bytes == size {
                cached = hasher.0.finalize()
            } else if let hash {
                cached = hash
            } else {
                cached = try partial.sha256()
            }
        }
        let identity = partial.identity()
        try partial.finish()
        finished = true
        if let cache, let cached, let identity {
            cache.complete(
                FinishedDownload(path: path, device: identity.device, inode: identity.inode, length: Int(clamping: size), sha256: cached))
        }
        return DownloadedFile(url: target, bytes: size, resumedFrom: size - fetchedIntoPartial, bytesFetched: fetched, sha256: hash)
    }

    /// Opens one request, where a disk cache among its middlewares may offer to keep the file.
    private static func open(
        _ request: NetworkClient.Call, _ client: NetworkClient, _ options: DownloadOptions, cache: DownloadStoreOffer?
    ) async throws(NetworkError) -> (HTTPResponse, HTTPBody?) {
        try await client.openStream(request, idleTimeout: options.idleTimeout, accepting: [416], downloadOffer: cache)
    }

    /// The answer did not fit the partial: empty it and ask again from the first byte.
    private func restart(
        _ partial: PartialDownload, _ state: inout DownloadState?, _ restarts: inout Int, _ fetchedIntoPartial: inout Int64
    ) throws(NetworkError) {
        restarts += 1
        guard restarts <= Self.maxRestarts else { throw .invalidResponse }
        try partial.reset()
        state = nil
        fetchedIntoPartial = 0
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
