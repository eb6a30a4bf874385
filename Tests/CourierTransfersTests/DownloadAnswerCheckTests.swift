import Courier
import CourierTesting
import CourierTransfers
import Foundation
import HTTPTypes
import IntegrationTestSupport
import Testing

/// What a download makes of answers a sandbox would not send: hostile numbers, a part of another
/// version, a coded body, a weak date — over `StubTransport`, so each answer is exactly as written.
@Suite("Downloads: every answer checked before a byte is kept")
struct DownloadAnswerCheckTests {
    static let endpoint = URLEndpoint(URL(string: "https://files.example.com/f.bin")!)!
    static let noRetry = DownloadOptions(retry: RetryPolicy(maxAttempts: 1))

    /// A stub that first answers "hello" of a declared 10 bytes (a cut body), so the partial holds
    /// 5 bytes and the state `etag` (or none).
    func cutFirst(_ stub: StubTransport, _ target: URL, etag: String? = "\"v1\"", extra: HTTPFields = [:]) async {
        var headers: HTTPFields = [.contentLength: "10"]
        if let etag { headers[.eTag] = etag }
        for field in extra { headers.append(field) }
        stub.on(.get, "/f.bin", .init(status: 200, headers: headers, body: Data("hello".utf8)))
        await #expect(throws: NetworkError.networkError(URLError(.networkConnectionLost))) {
            _ = try await NetworkClient(transport: stub).download(Self.endpoint, to: target, options: Self.noRetry)
        }
    }

    @Test("a Content-Range whose numbers saturate is no range: no trap, the download starts over and fails cleanly")
    func saturatingContentRange() async throws {
        let scratch = try ScratchDirectory()
        let target = scratch.file("f.bin")
        let stub = StubTransport()
        await cutFirst(stub, target)
        stub.on(
            .get, "/f.bin",
            .init(status: 206, headers: [.contentRange: "bytes 5-99999999999999999999999/*", .eTag: "\"v1\""], body: Data("world".utf8)))
        await #expect(throws: NetworkError.invalidResponse) {
            _ = try await NetworkClient(transport: stub).download(Self.endpoint, to: target, options: Self.noRetry)
        }
        #expect(stub.requests.last?.request.headerFields[.range] == nil, "after the bad part, asked again from the first byte")
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }

    @Test("a part of another version (its ETag differs) is never appended")
    func partOfAnotherVersion() async throws {
        let scratch = try ScratchDirectory()
        let target = scratch.file("f.bin")
        let stub = StubTransport()
        await cutFirst(stub, target)
        stub.on(.get, "/f.bin", .init(status: 206, headers: [.contentRange: "bytes 5-9/10", .eTag: "\"v2\""], body: Data("WORLD".utf8)))
        await #expect(throws: NetworkError.invalidResponse) {
            _ = try await NetworkClient(transport: stub).download(Self.endpoint, to: target, options: Self.noRetry)
        }
        #expect(stub.requests[1].request.headerFields[.ifRange] == "\"v1\"")
        #expect(!FileManager.default.fileExists(atPath: target.path), "hello + WORLD would be two versions spliced")
    }

    @Test("a coded body (Content-Encoding although identity was asked) is taken whole and is not resumable")
    func codedBody() async throws {
        let scratch = try ScratchDirectory()
        let target = scratch.file("f.bin")
        let stub = StubTransport()
        stub.on(
            .get, "/f.bin", .init(status: 200, headers: [.contentEncoding: "gzip", .contentLength: "3", .eTag: "\"v1\""], body: Data("hello".utf8)))
        let file = try await NetworkClient(transport: stub).download(Self.endpoint, to: target)
        #expect(file.bytes == 5)
        #expect(stub.requests[0].request.headerFields[.acceptEncoding] == "identity")
    }

    @Test("Last-Modified within the second of the answer's Date is weak: no resume with it")
    func weakDate() async throws {
        let scratch = try ScratchDirectory()
        let target = scratch.file("f.bin")
        let stub = StubTransport()
        let now = "Wed, 25 Nov 2026 10:00:00 GMT"
        await cutFirst(stub, target, etag: nil, extra: [.lastModified: now, .date: now])
        stub.on(.get, "/f.bin", .init(status: 200, headers: [.contentLength: "10"], body: Data("helloworld".utf8)))
        let file = try await NetworkClient(transport: stub).download(Self.endpoint, to: target)
        #expect(file.resumedFrom == 0 && file.bytes == 10)
        #expect(stub.requests[1].request.headerFields[.range] == nil)
    }

    @Test("a strong Last-Modified (a second or more before Date) is sent as If-Range")
    func strongDate() async throws {
        let scratch = try ScratchDirectory()
        let target = scratch.file("f.bin")
        let stub = StubTransport()
        let modified = "Wed, 25 Nov 2026 09:00:00 GMT"
        await cutFirst(stub, target, etag: nil, extra: [.lastModified: modified, .date: "Wed, 25 Nov 2026 10:00:00 GMT"])
        stub.on(.get, "/f.bin", .init(status: 206, headers: [.contentRange: "bytes 5-9/10"], body: Data("world".utf8)))
        let file = try await NetworkClient(transport: stub).download(Self.endpoint, to: target)
        #expect(file.resumedFrom == 5 && file.bytes == 10)
        #expect(stub.requests[1].request.headerFields[.ifRange] == modified)
        #expect(try String(contentsOf: target, encoding: .utf8) == "helloworld")
    }

    @Test("--continue's own FILE is put back untouched when nothing comes of it (an error, a checksum mismatch)")
    func adoptedFileIsRestored() async throws {
        let scratch = try ScratchDirectory()
        let target = scratch.file("f.bin")
        try Data("mine".utf8).write(to: target)
        let stub = StubTransport()
        stub.on(.get, "/f.bin", .status(404))
        let adopt = DownloadOptions(resume: .fromExistingBytes)
        await #expect(throws: NetworkError.notFound(404)) {
            _ = try await NetworkClient(transport: stub).download(Self.endpoint, to: target, options: adopt)
        }
        #expect(try String(contentsOf: target, encoding: .utf8) == "mine")
        #expect(scratch.names == ["f.bin"])
        // A complete FILE (416 with its size) whose checksum is not the one given: kept, not deleted.
        stub.on(.get, "/f.bin", .init(status: 416, headers: [.contentRange: "bytes */4"], body: Data()))
        var checked = adopt
        checked.checksum = "sha256:" + String(repeating: "0", count: 64)
        let error = await #expect(throws: NetworkError.self) {
            _ = try await NetworkClient(transport: stub).download(Self.endpoint, to: target, options: checked)
        }
        #expect(error?.caseName == "fileError")
        #expect(try String(contentsOf: target, encoding: .utf8) == "mine")
        #expect(scratch.names == ["f.bin"])
    }
}
