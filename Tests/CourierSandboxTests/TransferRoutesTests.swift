import AsyncHTTPClient
import Foundation
import IntegrationTestSupport
import NIOCore
import Testing

@testable import CourierSandbox

/// `/files/{name}` (deterministic bodies, ranges, validators, pacing, cuts), `/upload` and
/// `/ndjson`, for download, resumption and streaming tests.
@Suite("Sandbox: transfer routes")
struct TransferRoutesTests {
    /// The file most tests fetch: 200,000 bytes, seed 7, version 2.
    static let query = "size=200000&seed=7&version=2"
    static let file = SandboxFileContent(size: 200_000, seed: 7, version: 2)

    // MARK: - The content

    @Test("SandboxFileContent: a pure function of seed, version and offset, repeating every 65,521 bytes")
    func content() {
        let file = SandboxFileContent(size: 300_000, seed: 7, version: 2)
        let again = SandboxFileContent(size: 300_000, seed: 7, version: 2)
        let bytes = file.bytes(in: 0..<300_000)
        #expect(bytes.count == 300_000 && bytes == again.bytes(in: 0..<300_000))
        #expect(SandboxFileContent.period == 65_521)
        let periodic = (0..<1_000).allSatisfy { (index: Int) -> Bool in bytes[index] == bytes[index + 65_521] }
        #expect(periodic)
        let byByte = (0..<1_000).allSatisfy { (index: Int) -> Bool in bytes[index + 1_000] == file.byte(at: Int64(index + 1_000)) }
        #expect(byByte)
        #expect(file.bytes(in: 65_500..<65_600) == Array(bytes[65_500..<65_600]))
        // Clamped to the file.
        #expect(file.bytes(in: 299_990..<400_000) == Array(bytes[299_990...]))
        #expect(file.bytes(in: -10..<5) == Array(bytes[0..<5]))
        var buffer = ByteBuffer(string: "x")
        file.write(1_000..<140_000, into: &buffer)
        #expect(Array(buffer.readableBytesView) == [UInt8(ascii: "x")] + Array(bytes[1_000..<140_000]))
    }

    @Test("another version or seed differs at almost every offset (two versions spliced are detectable)")
    func versionsDiffer() {
        let one = SandboxFileContent(size: 100_000, seed: 7, version: 1).bytes(in: 0..<100_000)
        let two = SandboxFileContent(size: 100_000, seed: 7, version: 2).bytes(in: 0..<100_000)
        let otherSeed = SandboxFileContent(size: 100_000, seed: 8, version: 1).bytes(in: 0..<100_000)
        #expect(zip(one, two).filter { $0 != $1 }.count > 99_000)
        #expect(zip(one, otherSeed).filter { $0 != $1 }.count > 99_000)
        #expect(Set(one).count == 256, "every byte value occurs")
    }

    // MARK: - Whole files

    @Test("GET /files/{name} sends the whole file with Content-Length, type, Accept-Ranges, ETag and Last-Modified; HEAD the same head")
    func wholeFile() async throws {
        try await withSandbox { sandbox in
            let answer = try await sandbox.send(.GET, "/files/a.bin?\(Self.query)")
            #expect(answer.status == 200)
            #expect(answer.header("Content-Length") == "200000" && answer.header("Content-Type") == "application/octet-stream")
            #expect(answer.header("Accept-Ranges") == "bytes" && answer.header("Content-Range") == nil)
            #expect(answer.header("ETag") == "\"200000-7-2\"")
            #expect(answer.header("Last-Modified") == "Thu, 01 Jan 2026 02:00:00 GMT")
            #expect(answer.body == Self.file.bytes(in: 0..<200_000))

            let head = try await sandbox.send(.HEAD, "/files/a.bin?\(Self.query)")
            #expect(head.status == 200 && head.body.isEmpty)
            #expect(head.header("Content-Length") == "200000" && head.header("ETag") == "\"200000-7-2\"")

            let defaults = try await sandbox.send(.GET, "/files/any-name")
            #expect(defaults.body == SandboxFileContent(size: 1 << 20, seed: 0, version: 1).bytes(in: 0..<(1 << 20)))
            #expect(defaults.header("ETag") == "\"1048576-0-1\"" && defaults.header("Last-Modified") == "Thu, 01 Jan 2026 01:00:00 GMT")

            let empty = try await sandbox.send(.GET, "/files/empty?size=0")
            #expect(empty.status == 200 && empty.body.isEmpty && empty.header("Content-Length") == "0")
        }
    }

    @Test("an 8 GiB file is announced by HEAD without being made")
    func hugeHead() async throws {
        try await withSandbox { sandbox in
            let head = try await sandbox.send(.HEAD, "/files/huge?size=8589934592")
            #expect(head.status == 200 && head.header("Content-Length") == "8589934592")
        }
    }

    @Test("validator= chooses the validators sent; weak=1 sends a weak ETag")
    func validators() async throws {
        try await withSandbox { sandbox in
            let etag = try await sandbox.send(.HEAD, "/files/v?\(Self.query)&validator=etag")
            #expect(etag.header("ETag") == "\"200000-7-2\"" && etag.header("Last-Modified") == nil)
            let date = try await sandbox.send(.HEAD, "/files/v?\(Self.query)&validator=last-modified")
            #expect(date.header("ETag") == nil && date.header("Last-Modified") == "Thu, 01 Jan 2026 02:00:00 GMT")
            let none = try await sandbox.send(.HEAD, "/files/v?\(Self.query)&validator=none")
            #expect(none.header("ETag") == nil && none.header("Last-Modified") == nil)
            let weak = try await sandbox.send(.HEAD, "/files/v?\(Self.query)&weak=1")
            #expect(weak.header("ETag") == "W/\"200000-7-2\"" && weak.header("Last-Modified") != nil)
        }
    }

    // MARK: - Ranges

    @Test("a single range answers 206 with Content-Range and only those bytes: a-b, a-, -n, a last position past the end")
    func ranges() async throws {
        try await withSandbox { sandbox in
            let cases: [(field: String, range: Range<Int64>)] = [
                ("bytes=100-199", 100..<200),
                ("bytes=65500-65599", 65_500..<65_600),  // across the pattern's period
                ("bytes=199990-", 199_990..<200_000),
                ("bytes=-500", 199_500..<200_000),
                ("bytes=-300000", 0..<200_000),
                ("bytes=199990-999999", 199_990..<200_000),
                ("bytes=0-0", 0..<1),
                ("BYTES= 5-9 ", 5..<10),
            ]
            for (field, range) in cases {
                let answer = try await sandbox.send(.GET, "/files/r?\(Self.query)", headers: [("Range", field)])
                #expect(answer.status == 206, "\(field)")
                #expect(answer.header("Content-Range") == "bytes \(range.lowerBound)-\(range.upperBound - 1)/200000", "\(field)")
                #expect(answer.header("Content-Length") == "\(range.count)", "\(field)")
                #expect(answer.body == Self.file.bytes(in: range), "\(field)")
                #expect(answer.header("ETag") == "\"200000-7-2\"", "\(field)")
            }
        }
    }

    @Test("a range starting at or past the end (or -0) answers 416 with Content-Range: bytes */size and no body")
    func unsatisfiable() async throws {
        try await withSandbox { sandbox in
            for field in ["bytes=200000-", "bytes=200000-200010", "bytes=99999999999999999999999-", "bytes=-0"] {
                let answer = try await sandbox.send(.GET, "/files/r?\(Self.query)", headers: [("Range", field)])
                #expect(answer.status == 416, "\(field)")
                #expect(answer.header("Content-Range") == "bytes */200000" && answer.body.isEmpty, "\(field)")
            }
            let empty = try await sandbox.send(.GET, "/files/r?size=0", headers: [("Range", "bytes=0-")])
            #expect(empty.status == 416 && empty.header("Content-Range") == "bytes */0")
        }
    }

    @Test("several ranges, a malformed field, another unit, a HEAD, or ranges=ignore: 200 with the whole file")
    func ignoredRanges() async throws {
        try await withSandbox { sandbox in
            for field in ["bytes=0-1,5-9", "bytes=9-5", "bytes=abc", "bytes=-", "bytes=1-2-3", "items=0-5", "bytes 0-5", "bytes=0x10-"] {
                let answer = try await sandbox.send(.GET, "/files/r?\(Self.query)", headers: [("Range", field)])
                #expect(answer.status == 200 && answer.header("Content-Range") == nil, "\(field)")
                #expect(answer.body.count == 200_000, "\(field)")
            }
            let head = try await sandbox.send(.HEAD, "/files/r?\(Self.query)", headers: [("Range", "bytes=0-9")])
            #expect(head.status == 200 && head.header("Content-Length") == "200000")
            let ignored = try await sandbox.send(.GET, "/files/r?\(Self.query)&ranges=ignore", headers: [("Range", "bytes=0-9")])
            #expect(ignored.status == 200 && ignored.header("Accept-Ranges") == nil && ignored.body == Self.file.bytes(in: 0..<200_000))
        }
    }

    @Test("ByteRangeRequest reads one range of RFC 9110 and ignores the rest")
    func rangeParser() {
        #expect(ByteRangeRequest(field: "bytes=0-", size: 10) == .partial(0..<10))
        #expect(ByteRangeRequest(field: "bytes=2-4", size: 10) == .partial(2..<5))
        #expect(ByteRangeRequest(field: "bytes=-3", size: 10) == .partial(7..<10))
        #expect(ByteRangeRequest(field: "bytes=-30", size: 10) == .partial(0..<10))
        #expect(ByteRangeRequest(field: "bytes=8-99999999999999999999", size: 10) == .partial(8..<10))
        #expect(ByteRangeRequest(field: "bytes=0-0, ", size: 10) == .partial(0..<1))
        #expect(ByteRangeRequest(field: "bytes=10-", size: 10) == .unsatisfiable)
        #expect(ByteRangeRequest(field: "bytes=-0", size: 10) == .unsatisfiable)
        #expect(ByteRangeRequest(field: "bytes=-5", size: 0) == .ignored)
        for field in ["", "bytes=", "bytes=5", "bytes=5-4", "bytes=+1-2", "bytes=1 -2", "bytes=0-1,2-3", "pages=1-2", "bytes=a-b"] {
            #expect(ByteRangeRequest(field: field, size: 10) == .ignored, "\(field)")
        }
    }

    // MARK: - If-Range

    @Test("If-Range: the exact strong ETag honours the range; another tag, a weak tag or a date beside an ETag sends the whole file")
    func ifRangeTags() async throws {
        try await withSandbox { sandbox in
            let cases: [(ifRange: String, query: String, status: Int)] = [
                ("\"200000-7-2\"", "", 206),
                ("\"200000-7-1\"", "", 200),
                ("\"200000-7-2\"", "&validator=last-modified", 200),  // no ETag sent: no tag can match
                ("W/\"200000-7-2\"", "", 200),
                ("W/\"200000-7-2\"", "&weak=1", 200),  // a weak ETag never matches
                ("\"200000-7-2\"", "&weak=1", 200),
                ("Thu, 01 Jan 2026 02:00:00 GMT", "", 200),  // a date while an ETag is sent
            ]
            for (ifRange, query, status) in cases {
                let answer = try await sandbox.send(
                    .GET, "/files/i?\(Self.query)\(query)", headers: [("Range", "bytes=100-199"), ("If-Range", ifRange)])
                #expect(answer.status == status, "If-Range: \(ifRange) with \(query)")
                #expect(answer.body.count == (status == 206 ? 100 : 200_000), "If-Range: \(ifRange) with \(query)")
            }
        }
    }

    @Test("If-Range: a date honours the range only when it is exactly the Last-Modified sent with no ETag")
    func ifRangeDates() async throws {
        try await withSandbox { sandbox in
            let path = "/files/i?\(Self.query)&validator=last-modified"
            let exact = try await sandbox.send(.GET, path, headers: [("Range", "bytes=100-199"), ("If-Range", "Thu, 01 Jan 2026 02:00:00 GMT")])
            #expect(exact.status == 206 && exact.body == Self.file.bytes(in: 100..<200))
            let other = try await sandbox.send(.GET, path, headers: [("Range", "bytes=100-199"), ("If-Range", "Thu, 01 Jan 2026 03:00:00 GMT")])
            #expect(other.status == 200 && other.body.count == 200_000)
            let none = try await sandbox.send(
                .GET, "/files/i?\(Self.query)&validator=none", headers: [("Range", "bytes=100-199"), ("If-Range", "\"200000-7-2\"")])
            #expect(none.status == 200)
            // Without a Range, If-Range changes nothing.
            let alone = try await sandbox.send(.GET, "/files/i?\(Self.query)", headers: [("If-Range", "\"nope\"")])
            #expect(alone.status == 200 && alone.body.count == 200_000)
        }
    }

    // MARK: - Cuts, changes, pace

    @Test("cutAt=N sends the bytes up to offset N, then cuts the connection short of Content-Length; a resume from N is whole")
    func cutAndResume() async throws {
        try await withSandbox { sandbox in
            let path = "/files/c?\(Self.query)&cutAt=120000&key=cut"
            let response = try await HTTPClient.shared.execute(sandbox.request(.GET, path), timeout: .seconds(30))
            #expect(response.status == .ok && response.headers.first(name: "Content-Length") == "200000")
            var received: [UInt8] = []
            await #expect(throws: (any Error).self) {
                for try await chunk in response.body { received += chunk.readableBytesView }
            }
            // The bytes up to the cut, or fewer: pieces still queued in the server when it cuts
            // the connection never leave it (seen on a loaded machine). Never more, never others.
            #expect(received.count <= 120_000 && received == Self.file.bytes(in: 0..<Int64(received.count)))

            let rest = try await sandbox.send(.GET, path, headers: [("Range", "bytes=120000-"), ("If-Range", "\"200000-7-2\"")])
            #expect(rest.status == 206 && rest.header("Content-Range") == "bytes 120000-199999/200000")
            #expect(rest.body == Self.file.bytes(in: 120_000..<200_000))

            // A range that covers the cut is cut at the same offset.
            let covering = try await HTTPClient.shared.execute(
                sandbox.request(.GET, path, headers: [("Range", "bytes=100000-149999")]), timeout: .seconds(30))
            #expect(covering.status == .partialContent)
            var partial: [UInt8] = []
            await #expect(throws: (any Error).self) {
                for try await chunk in covering.body { partial += chunk.readableBytesView }
            }
            #expect(partial.count <= 20_000 && partial == Self.file.bytes(in: 100_000..<(100_000 + Int64(partial.count))))

            let stats = try await sandbox.json("/files/stats?key=cut", as: TransferStats.self)
            #expect(stats.requests == 3 && stats.full == 1 && stats.partial == 2 && stats.cuts == 2)
            #expect(stats.ranges == ["bytes=120000-", "bytes=100000-149999"] && stats.ifRanges == ["\"200000-7-2\""])
        }
    }

    @Test("changing=C: each request is a new version (ETag, Last-Modified and bytes), so an old If-Range sends the whole new file")
    func changing() async throws {
        try await withSandbox { sandbox in
            for version in 1...3 {
                let head = try await sandbox.send(.HEAD, "/files/ch?size=1000&changing=c")
                #expect(head.header("ETag") == "\"1000-0-\(version)\"")
                #expect(head.header("Last-Modified") == "Thu, 01 Jan 2026 0\(version):00:00 GMT")
            }
            let stale = try await sandbox.send(
                .GET, "/files/ch?size=1000&changing=c", headers: [("Range", "bytes=0-9"), ("If-Range", "\"1000-0-3\"")])
            #expect(stale.status == 200 && stale.header("ETag") == "\"1000-0-4\"")
            #expect(stale.body == SandboxFileContent(size: 1000, seed: 0, version: 4).bytes(in: 0..<1000))
            // Another value counts on its own; version= is not used.
            let other = try await sandbox.send(.HEAD, "/files/ch?size=1000&changing=d&version=9")
            #expect(other.header("ETag") == "\"1000-0-1\"")
        }
    }

    @Test("pace=N sends at most N bytes a second: 40,000 bytes at 100,000 B/s take at least 0.35 s")
    func pace() async throws {
        try await withSandbox { sandbox in
            let start = ContinuousClock.now
            let answer = try await sandbox.send(.GET, "/files/p?size=40000&seed=3&pace=100000")
            let elapsed = ContinuousClock.now - start
            #expect(answer.status == 200 && answer.body == SandboxFileContent(size: 40_000, seed: 3, version: 1).bytes(in: 0..<40_000))
            #expect(elapsed >= .milliseconds(350), "\(elapsed)")
            #expect(elapsed < .seconds(20), "\(elapsed)")
        }
    }

    // MARK: - Stats

    @Test("/files/stats?key= counts requests, 200s, 206s, 416s, body bytes and the Range and If-Range fields; it is no file")
    func stats() async throws {
        try await withSandbox { sandbox in
            let path = "/files/s?size=1000&key=s"
            _ = try await sandbox.send(.GET, path)
            _ = try await sandbox.send(.GET, path, headers: [("Range", "bytes=0-99"), ("If-Range", "\"1000-0-1\"")])
            _ = try await sandbox.send(.GET, path, headers: [("Range", "bytes=5000-")])
            _ = try await sandbox.send(.HEAD, path)
            let written = await eventually { try await sandbox.json("/files/stats?key=s", as: TransferStats.self).bytesWritten == 1_100 }
            #expect(written)
            let expected = TransferStats(
                requests: 4, full: 2, partial: 1, unsatisfiable: 1, bytesWritten: 1_100, ranges: ["bytes=0-99", "bytes=5000-"],
                ifRanges: ["\"1000-0-1\""])
            #expect(try await sandbox.json("/files/stats?key=s", as: TransferStats.self) == expected)

            let stats = try await sandbox.send(.GET, "/files/stats?key=never")
            #expect(stats.header("Content-Type")?.hasPrefix("application/json") == true)
            #expect(try stats.json(TransferStats.self) == TransferStats())
        }
    }

    @Test("the stats keep the last 16 Range fields of a key")
    func lastSixteen() async throws {
        try await withSandbox { sandbox in
            for start in 0..<20 {
                _ = try await sandbox.send(.GET, "/files/l?size=100&key=l", headers: [("Range", "bytes=\(start)-")])
            }
            let stats = try await sandbox.json("/files/stats?key=l", as: TransferStats.self)
            #expect(stats.requests == 20 && stats.partial == 20)
            #expect(stats.ranges == (4..<20).map { "bytes=\($0)-" })
        }
    }

    @Test("the ledger's tables keep at most their limit of keys, forgetting the oldest first")
    func boundedTable() {
        var table = BoundedTable<Int>(limit: 3)
        for key in ["a", "b", "c"] { table.update(key, initial: 0) { $0 += 1 } }
        table.update("a", initial: 0) { $0 += 1 }
        table.update("d", initial: 0) { $0 += 1 }
        #expect(table["a"] == nil && table["b"] == 1 && table["c"] == 1 && table["d"] == 1)
        #expect(TransferLedger.maxKeys == 1_000)
    }

    @Test("a parameter that is present but wrong answers 400")
    func badParameters() async throws {
        try await withSandbox { sandbox in
            let queries = [
                "size=-1", "size=8589934593", "size=big", "seed=-1", "version=1000001", "validator=strong", "weak=maybe", "ranges=all",
                "pace=0", "cutAt=-1",
            ]
            for query in queries {
                let answer = try await sandbox.send(.GET, "/files/x?\(query)")
                #expect(answer.status == 400, "\(query)")
            }
            for query in ["count=-1", "count=10000001", "interval=10001", "format=xml", "hangAfter=x"] {
                let answer = try await sandbox.send(.GET, "/ndjson?\(query)")
                #expect(answer.status == 400, "\(query)")
            }
        }
    }

    // MARK: - Uploads

    @Test("POST /upload answers the body's length and SHA-256, its declared length and type; nulls when absent")
    func uploadSmall() async throws {
        try await withSandbox { sandbox in
            let abc = try await sandbox.send(.POST, "/upload?key=up", headers: [("Content-Type", "text/plain")], body: Array("abc".utf8))
            #expect(abc.status == 200)
            let receipt = try abc.json(UploadReceipt.self)
            #expect(
                receipt
                    == UploadReceipt(
                        bytes: 3, sha256: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", declaredLength: 3,
                        contentType: "text/plain"))
            let empty = try await sandbox.send(.PUT, "/upload")
            #expect(try empty.json(UploadReceipt.self).sha256 == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
            #expect(empty.text.contains("\"contentType\":null"), "nil fields are sent as null: \(empty.text)")

            // A million "a", chunked (no Content-Length): the NIST test vector.
            let pieces = AsyncStream<ByteBuffer> { continuation in
                for _ in 0..<1_000 { continuation.yield(ByteBuffer(repeating: UInt8(ascii: "a"), count: 1_000)) }
                continuation.finish()
            }
            var request = sandbox.request(.POST, "/upload?key=up")
            request.body = .stream(pieces, length: .unknown)
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
            let chunked = try JSONDecoder().decode(UploadReceipt.self, from: Data((try await response.body.collect(upTo: 1 << 20)).readableBytesView))
            #expect(chunked == UploadReceipt(bytes: 1_000_000, sha256: "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"))

            let stats = try await sandbox.json("/files/stats?key=up", as: TransferStats.self)
            #expect(stats == TransferStats(requests: 2, full: 2, bytesReceived: 1_000_003))
        }
    }

    @Test("PUT /upload of 100 MB streams through: counted and hashed as it arrives")
    func uploadLarge() async throws {
        try await withSandbox { sandbox in
            let file = SandboxFileContent(size: 100_000_000, seed: 1, version: 1)
            var request = sandbox.request(.PUT, "/upload")
            request.body = .stream(FilePieces(file: file), length: .known(file.size))
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(120))
            #expect(response.status == .ok)
            let receipt = try JSONDecoder().decode(UploadReceipt.self, from: Data((try await response.body.collect(upTo: 1 << 20)).readableBytesView))
            // The digest pins SandboxFileContent too: its bytes must not change between versions of the sandbox.
            #expect(
                receipt
                    == UploadReceipt(
                        bytes: 100_000_000, sha256: "287cd3035a1e331c6c615559935b03b798bb611deea88008e489ff36e58ff750",
                        declaredLength: 100_000_000))
        }
    }

    // MARK: - NDJSON

    @Test("/ndjson streams count records {index, text} one a line, as application/x-ndjson; jsonseq prefixes 0x1E")
    func ndjson() async throws {
        try await withSandbox { sandbox in
            let answer = try await sandbox.send(.GET, "/ndjson?count=3")
            #expect(answer.status == 200 && answer.header("Content-Type") == "application/x-ndjson")
            #expect(answer.text == (0..<3).map { Self.record($0) }.joined())
            let seq = try await sandbox.send(.GET, "/ndjson?count=2&format=jsonseq")
            #expect(seq.header("Content-Type") == "application/json-seq")
            #expect(seq.body == [0x1E] + Array(Self.record(0).utf8) + [0x1E] + Array(Self.record(1).utf8))
            let defaults = try await sandbox.send(.GET, "/ndjson")
            #expect(defaults.text == (0..<10).map { Self.record($0) }.joined())
            let none = try await sandbox.send(.GET, "/ndjson?count=0")
            #expect(none.status == 200 && none.body.isEmpty)
        }
    }

    @Test("/ndjson?count=100000 arrives whole and in order; stats count its bytes")
    func ndjsonMany() async throws {
        try await withSandbox { sandbox in
            let answer = try await sandbox.send(.GET, "/ndjson?count=100000&key=many")
            let expected = Array((0..<100_000).map { Self.record($0) }.joined().utf8)
            #expect(answer.body == expected)
            let counted = await eventually {
                try await sandbox.json("/files/stats?key=many", as: TransferStats.self).bytesWritten == expected.count
            }
            #expect(counted)
            #expect(try await sandbox.json("/files/stats?key=many", as: TransferStats.self).full == 1)
        }
    }

    @Test("/ndjson?interval=100 spaces the records: 4 records take at least 300 ms")
    func ndjsonInterval() async throws {
        try await withSandbox { sandbox in
            let start = ContinuousClock.now
            let answer = try await sandbox.send(.GET, "/ndjson?count=4&interval=100")
            #expect(ContinuousClock.now - start >= .milliseconds(300))
            #expect(answer.text == (0..<4).map { Self.record($0) }.joined())
        }
    }

    @Test("/ndjson?hangAfter=2 sends two records, then nothing with the connection open")
    func ndjsonHang() async throws {
        try await withSandbox { sandbox in
            let received = Received()
            let reading = Task {
                let response = try await HTTPClient.shared.execute(sandbox.request(.GET, "/ndjson?count=5&hangAfter=2"), timeout: .seconds(60))
                for try await chunk in response.body { await received.append(chunk) }
                await received.end()
            }
            let two = Array((Self.record(0) + Self.record(1)).utf8)
            let arrived = await eventually { await received.bytes == two }
            #expect(arrived)
            try await Task.sleep(for: .milliseconds(500))
            #expect(await received.bytes == two)
            #expect(await received.ended == false, "the stream is still open")
            reading.cancel()
            _ = await reading.result
        }
    }

    /// Record `index` of `/ndjson`, newline included.
    static func record(_ index: Int) -> String {
        "{\"index\":\(index),\"text\":\"line \(index) 서울\"}\n"
    }
}

/// The bytes of a ``SandboxFileContent`` in 1 MiB buffers: an upload body never whole in memory.
private struct FilePieces: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let file: SandboxFileContent

    struct AsyncIterator: AsyncIteratorProtocol {
        let file: SandboxFileContent
        var offset: Int64 = 0

        mutating func next() async -> ByteBuffer? {
            guard offset < file.size else { return nil }
            let end = Swift.min(file.size, offset + (1 << 20))
            var buffer = ByteBuffer()
            file.write(offset..<end, into: &buffer)
            offset = end
            return buffer
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(file: file) }
}

/// What a streamed answer has delivered so far, and whether it ended.
private actor Received {
    var bytes: [UInt8] = []
    var ended = false

    func append(_ chunk: ByteBuffer) { bytes += chunk.readableBytesView }
    func end() { ended = true }
}
