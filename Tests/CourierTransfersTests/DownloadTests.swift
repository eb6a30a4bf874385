import Courier
import CourierSandbox
import CourierTransfers
import Foundation
import IntegrationTestSupport
import Testing

/// `client.download(_:to:)` against the sandbox's `/files` routes, over both transports.
@Suite("Downloads: streamed to disk, resumed, never spliced", .tags(.timing))
struct DownloadTests {
    /// No in-call resume: a cut download stays cut, for the next call to resume.
    static let noRetry = DownloadOptions(retry: RetryPolicy(maxAttempts: 1))

    @Test("a file larger than maxResponseBytes streams to disk whole; nothing is left beside it", arguments: TransportKind.allCases)
    func largerThanTheBodyLimit(_ kind: TransportKind) async throws {
        try await withSandbox { sandbox in
            let routes = TransferRoutes(sandbox: sandbox)
            let scratch = try ScratchDirectory()
            var configuration = NetworkClient.Configuration(transport: kind.make())
            configuration.maxResponseBytes = 1 << 20
            let client = NetworkClient(configuration: configuration)
            let size: Int64 = 24 << 20
            let target = scratch.file("big.bin")
            let file = try await client.download(routes.file("big.bin", ["size": size, "seed": 7]), to: target)
            #expect(file.bytes == size && file.resumedFrom == 0 && file.bytesFetched == size)
            #expect(try Data(contentsOf: target) == TransferRoutes.content(size: size, seed: 7))
            #expect(scratch.names == ["big.bin"])
            #expect(permissions(target).map { $0 & 0o077 } != 0, "a finished file has the usual permissions, not the partial's 0600")
            // The same limit still holds for a buffered answer.
            await #expect(throws: NetworkError.responseTooLarge(limit: 1 << 20)) {
                _ = try await client.response(routes.file("big.bin", ["size": size]))
            }
        }
    }

    @Test("a cut download leaves a 0600 partial and its state; the next call resumes with Range and If-Range", arguments: TransportKind.allCases)
    func resumesAfterACut(_ kind: TransportKind) async throws {
        try await withSandbox { sandbox in
            let routes = TransferRoutes(sandbox: sandbox)
            let scratch = try ScratchDirectory()
            let client = NetworkClient(transport: kind.make())
            let (size, cut): (Int64, Int64) = (3 << 20, 1_234_567)
            let key = transferKey("resume")
            let endpoint = routes.file("r.bin", ["size": size, "cutAt": cut, "cuts": 1, "key": key])
            let target = scratch.file("r.bin")
            await #expect(throws: NetworkError.networkError(URLError(.networkConnectionLost))) {
                _ = try await client.download(endpoint, to: target, options: Self.noRetry)
            }
            #expect(scratch.names == ["r.bin.courier-partial", "r.bin.courier-resume"])
            #expect(permissions(scratch.file("r.bin.courier-partial")) == 0o600)
            #expect(permissions(scratch.file("r.bin.courier-resume")) == 0o600)
            let state = try String(contentsOf: scratch.file("r.bin.courier-resume"), encoding: .utf8)
            #expect(!state.contains("127.0.0.1") && !state.contains("files"), "the state names no URL: \(state)")
            // What arrived before the cut (the bytes in flight when the connection was reset may be lost).
            let kept = try #require(
                (FileManager.default.attributesOfItem(atPath: scratch.file("r.bin.courier-partial").path)[.size] as? NSNumber)?.int64Value)
            #expect(kept > 0 && kept <= cut)

            let file = try await client.download(endpoint, to: target, options: Self.noRetry)
            #expect(file.resumedFrom == kept && file.bytesFetched == size - kept && file.bytes == size)
            #expect(try Data(contentsOf: target) == TransferRoutes.content(size: size))
            #expect(scratch.names == ["r.bin"])
            let stats = try await routes.stats(key)
            #expect(stats.requests == 2 && stats.partial == 1)
            #expect(stats.ranges == ["bytes=\(kept)-"])
            #expect(stats.ifRanges.count == 1 && stats.ifRanges[0].hasPrefix("\""), "a strong ETag: \(stats.ifRanges)")
            // Fetched in all: what the first call kept plus what the second fetched — the file once.
            // (The server's own count is no measure here: pieces still queued in it when it cuts the
            // connection are counted but never leave.)
            #expect(kept + file.bytesFetched <= size + 64 * 1024)
        }
    }

    @Test("within one call, a cut body is resumed under the retry policy", arguments: TransportKind.allCases)
    func resumesWithinTheCall(_ kind: TransportKind) async throws {
        try await withSandbox { sandbox in
            let routes = TransferRoutes(sandbox: sandbox)
            let scratch = try ScratchDirectory()
            let client = NetworkClient(
                configuration: .init(transport: kind.make(), middlewares: [RetryMiddleware(policy: RetryPolicy(baseDelay: .milliseconds(10)))]))
            let key = transferKey("in-call")
            let size: Int64 = 2 << 20
            let file = try await client.download(
                routes.file("c.bin", ["size": size, "cutAt": 777_777, "cuts": 1, "key": key]), to: scratch.file("c.bin"))
            #expect(file.bytes == size && file.resumedFrom == 0 && file.bytesFetched == size)
            #expect(try Data(contentsOf: scratch.file("c.bin")) == TransferRoutes.content(size: size))
            let stats = try await routes.stats(key)
            #expect(stats.requests == 2 && stats.full == 1 && stats.partial == 1 && stats.cuts == 1)
            #expect(stats.ranges.count == 1 && stats.ranges[0].hasPrefix("bytes=") && stats.ranges[0].hasSuffix("-"))
        }
    }

    @Test("a validator that changed since the cut gets the new version whole, never two versions spliced", arguments: TransportKind.allCases)
    func changedValidatorStartsOver(_ kind: TransportKind) async throws {
        try await withSandbox { sandbox in
            let routes = TransferRoutes(sandbox: sandbox)
            let scratch = try ScratchDirectory()
            let client = NetworkClient(transport: kind.make())
            let key = transferKey("changing")
            let size: Int64 = 1 << 20
            // `changing`: the version (and so the ETag and every byte) changes with each request.
            let endpoint = routes.file("v.bin", ["size": size, "cutAt": 300_000, "cuts": 1, "changing": key, "key": key])
            await #expect(throws: NetworkError.self) { _ = try await client.download(endpoint, to: scratch.file("v.bin"), options: Self.noRetry) }
            let file = try await client.download(endpoint, to: scratch.file("v.bin"), options: Self.noRetry)
            #expect(file.resumedFrom == 0 && file.bytes == size)
            #expect(try Data(contentsOf: scratch.file("v.bin")) == TransferRoutes.content(size: size, version: 2))
            let stats = try await routes.stats(key)
            #expect(stats.partial == 0 && stats.full == 2 && stats.ifRanges.count == 1)
        }
    }

    @Test("a server that ignores Range answers 200: the partial is emptied first and the file comes whole", arguments: TransportKind.allCases)
    func serverWithoutRanges(_ kind: TransportKind) async throws {
        try await withSandbox { sandbox in
            let routes = TransferRoutes(sandbox: sandbox)
            let scratch = try ScratchDirectory()
            let client = NetworkClient(transport: kind.make())
            let key = transferKey("no-ranges")
            let size: Int64 = 1 << 20
            let endpoint = routes.file("n.bin", ["size": size, "cutAt": 500_000, "cuts": 1, "ranges": "ignore", "key": key])
            await #expect(throws: NetworkError.self) { _ = try await client.download(endpoint, to: scratch.file("n.bin"), options: Self.noRetry) }
            let file = try await client.download(endpoint, to: scratch.file("n.bin"), options: Self.noRetry)
            #expect(file.resumedFrom == 0 && file.bytes == size)
            #expect(try Data(contentsOf: scratch.file("n.bin")) == TransferRoutes.content(size: size))
            let stats = try await routes.stats(key)
            #expect(stats.partial == 0 && stats.full == 2 && stats.ranges.count == 1, "the resume was asked for and refused")
        }
    }

    @Test("a weak ETag is no validator for a resume: the next call starts over without Range")
    func weakETagIsNotResumed() async throws {
        try await withSandbox { sandbox in
            let routes = TransferRoutes(sandbox: sandbox)
            let scratch = try ScratchDirectory()
            let client = NetworkClient()
            let key = transferKey("weak")
            let endpoint = routes.file("w.bin", ["size": 1 << 20, "cutAt": 100_000, "cuts": 1, "weak": 1, "validator": "etag", "key": key])
            await #expect(throws: NetworkError.self) { _ = try await client.download(endpoint, to: scratch.file("w.bin"), options: Self.noRetry) }
            let file = try await client.download(endpoint, to: scratch.file("w.bin"), options: Self.noRetry)
            #expect(file.resumedFrom == 0 && file.bytes == 1 << 20)
            let stats = try await routes.stats(key)
            #expect(stats.requests == 2 && stats.ranges.isEmpty)
        }
    }

    @Test("a partial that is already whole: the 416 with its total completes it, no body fetched", arguments: TransportKind.allCases)
    func unsatisfiableRangeOnACompleteFile(_ kind: TransportKind) async throws {
        try await withSandbox { sandbox in
            let routes = TransferRoutes(sandbox: sandbox)
            let scratch = try ScratchDirectory()
            let client = NetworkClient(transport: kind.make())
            let key = transferKey("complete")
            let size: Int64 = 500_000
            let endpoint = routes.file("k.bin", ["size": size, "cutAt": 200_000, "cuts": 1, "key": key])
            await #expect(throws: NetworkError.self) { _ = try await client.download(endpoint, to: scratch.file("k.bin"), options: Self.noRetry) }
            // As if the process had written every byte and been killed before the rename.
            let handle = try FileHandle(forWritingTo: scratch.file("k.bin.courier-partial"))
            try handle.truncate(atOffset: 0)
            try handle.write(contentsOf: TransferRoutes.content(size: size))
            try handle.close()
            let file = try await client.download(endpoint, to: scratch.file("k.bin"), options: Self.noRetry)
            #expect(file.bytes == size && file.resumedFrom == size && file.bytesFetched == 0)
            #expect(try Data(contentsOf: scratch.file("k.bin")) == TransferRoutes.content(size: size))
            #expect(try await routes.stats(key).unsatisfiable == 1)
        }
    }

    @Test("a second download to the same target fails at once with inUse; the first completes untouched")
    func concurrentDownloaders() async throws {
        try await withSandbox { sandbox in
            let routes = TransferRoutes(sandbox: sandbox)
            let scratch = try ScratchDirectory()
            let client = NetworkClient()
            let size: Int64 = 600_000
            let target = scratch.file("same.bin")
            let slow = routes.file("same.bin", ["size": size, "pace": 1_000_000])
            let first = Task { () throws(NetworkError) -> DownloadedFile in try await client.download(slow, to: target) }
            await eventually { FileManager.default.fileExists(atPath: target.path + ".courier-resume") }
            let started = ContinuousClock.now
            await #expect(throws: NetworkError.fileError(.inUse(path: target.path))) {
                _ = try await client.download(routes.file("same.bin", ["size": size, "seed": 9]), to: target)
            }
            #expect(ContinuousClock.now - started < .seconds(2), "at once, not after the first finished")
            let file = try await first.value
            #expect(file.bytes == size)
            #expect(try Data(contentsOf: target) == TransferRoutes.content(size: size))
        }
    }

    @Test("a cancelled download ends taskCancelled and is resumed by the next call", arguments: TransportKind.allCases)
    func cancelledDownloadResumes(_ kind: TransportKind) async throws {
        try await withSandbox { sandbox in
            let routes = TransferRoutes(sandbox: sandbox)
            let scratch = try ScratchDirectory()
            let client = NetworkClient(transport: kind.make())
            let size: Int64 = 4 << 20
            let target = scratch.file("x.bin")
            let partial = target.path + ".courier-partial"
            let paced = routes.file("x.bin", ["size": size, "pace": 4 << 20])
            let task = Task { () throws(NetworkError) -> DownloadedFile in try await client.download(paced, to: target) }
            await eventually { ((try? FileManager.default.attributesOfItem(atPath: partial)[.size] as? NSNumber)?.intValue ?? 0) > 300_000 }
            task.cancel()
            await #expect(throws: NetworkError.taskCancelled) { _ = try await task.value }
            #expect(scratch.names == ["x.bin.courier-partial", "x.bin.courier-resume"])
            let file = try await client.download(paced, to: target)
            #expect(file.resumedFrom > 300_000 && file.bytes == size)
            #expect(try Data(contentsOf: target) == TransferRoutes.content(size: size))
        }
    }

    @Test("a checksum is checked before the file is put in place; a mismatch keeps nothing")
    func checksum() async throws {
        try await withSandbox { sandbox in
            let routes = TransferRoutes(sandbox: sandbox)
            let scratch = try ScratchDirectory()
            let client = NetworkClient()
            let endpoint = routes.file("s.bin", ["size": 100_000])
            let wrong = "sha256:" + String(repeating: "0", count: 64)
            await #expect(throws: NetworkError.self) {
                _ = try await client.download(endpoint, to: scratch.file("s.bin"), options: DownloadOptions(checksum: wrong))
            }
            #expect(scratch.names.isEmpty)
            let first = try await client.download(endpoint, to: scratch.file("a.bin"), options: DownloadOptions(checksum: nil))
            #expect(first.sha256 == nil)
            let hex = try #require(SHA256Hex.of(TransferRoutes.content(size: 100_000)))
            let checked = try await client.download(
                endpoint, to: scratch.file("s.bin"), options: DownloadOptions(checksum: "sha256:" + hex.uppercased()))
            #expect(checked.sha256 == hex)
            await #expect(throws: NetworkError.fileError(.invalidChecksum("md5:abc"))) {
                _ = try await client.download(endpoint, to: scratch.file("t.bin"), options: DownloadOptions(checksum: "md5:abc"))
            }
        }
    }

    @Test("an error status throws the endpoint's error and leaves no file", arguments: TransportKind.allCases)
    func errorStatus(_ kind: TransportKind) async throws {
        try await withSandbox { sandbox in
            let scratch = try ScratchDirectory()
            let client = NetworkClient(transport: kind.make())
            await #expect(throws: NetworkError.notFound(404)) {
                _ = try await client.download(TestEndpoint(baseURL: sandbox.baseURL, path: "/status/404"), to: scratch.file("e.bin"))
            }
            #expect(scratch.names.isEmpty, "no partial file for an answer that was never a body: \(scratch.names)")
        }
    }

    @Test("progress: ordered snapshots from before the first byte to a finished one with the whole size")
    func downloadProgress() async throws {
        try await withSandbox { sandbox in
            let routes = TransferRoutes(sandbox: sandbox)
            let scratch = try ScratchDirectory()
            let client = NetworkClient()
            let size: Int64 = 3 << 20
            let progress = TransferProgress(interval: .milliseconds(20))
            async let saved = client.download(routes.file("p.bin", ["size": size, "pace": 8 << 20]), to: scratch.file("p.bin"), progress: progress)
            var snapshots: [TransferProgress.Snapshot] = []
            for await snapshot in progress { snapshots.append(snapshot) }
            let file = try await saved
            #expect(file.bytes == size)
            #expect(snapshots.count >= 5, "\(snapshots.count) snapshots over ~0.4 s")
            #expect(zip(snapshots, snapshots.dropFirst()).allSatisfy { $0.bytesDone <= $1.bytesDone })
            #expect(snapshots.allSatisfy { $0.bytesExpected == size })
            #expect(snapshots.last?.isFinished == true && snapshots.last?.bytesDone == size && snapshots.last?.fractionCompleted == 1)
            #expect(snapshots.dropLast().allSatisfy { !$0.isFinished })
        }
    }
}
