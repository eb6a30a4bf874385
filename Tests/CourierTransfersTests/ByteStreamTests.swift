import Courier
import CourierSandbox
import CourierTesting
import CourierTransfers
import Foundation
import IntegrationTestSupport
import Synchronization
import Testing

/// `bytes`, `lines` and `jsonLines` against the sandbox's `/ndjson` and `/files` routes.
@Suite("Byte streams: bytes, lines, JSON lines", .tags(.timing))
struct ByteStreamTests {
    struct Line: Decodable, Sendable, Equatable {
        var index: Int
        var text: String
    }

    func ndjson(_ sandbox: RunningSandbox, _ query: RequestParameters) -> TestEndpoint {
        TestEndpoint(baseURL: sandbox.baseURL, path: "/ndjson", task: .requestParameters(query, encoding: .url))
    }

    @Test("NDJSON values arrive one by one before the stream ends (the server then hangs)", arguments: TransportKind.allCases)
    func linesArriveBeforeTheEnd(_ kind: TransportKind) async throws {
        try await withSandbox { sandbox in
            let client = NetworkClient(transport: kind.make())
            var received: [Line] = []
            for try await line in client.jsonLines(ndjson(sandbox, ["count": 10, "hangAfter": 3, "interval": 20]), as: Line.self) {
                received.append(line)
                if received.count == 3 { break }  // the fourth would take the server's 120 s
            }
            #expect(received == (0..<3).map { Line(index: $0, text: "line \($0) 서울") })
        }
    }

    /// AsyncHTTPClient only: the URLSession transport on Linux cannot hold libcurl back without
    /// stalling every other URLSession call in the process (see URLSessionClientTransport.send).
    @Test("a reader that pauses holds the server back on the AsyncHTTPClient transport: a few MiB in flight, not the body")
    func pausedReaderHoldsTheServerBack() async throws {
        try await withSandbox { sandbox in
            let routes = TransferRoutes(sandbox: sandbox)
            let client = NetworkClient(transport: TransportKind.asyncHTTPClient.make())
            let key = transferKey("paused")
            var iterator = client.bytes(routes.file("p.bin", ["size": 1 << 30, "key": key])).makeAsyncIterator()
            var read = 0
            while read < 1 << 20, let chunk = try await iterator.next() { read += chunk.count }
            // The reader pauses: what the server got out is what every buffer on the way holds —
            // the kernel's (a loopback receive buffer grows to 32 MiB here), the server's and the
            // transport's own — which must not grow with the body.
            try await Task.sleep(for: .milliseconds(1500))
            let written = try await routes.stats(key).bytesWritten
            #expect(written < 96 << 20, "\(written >> 20) MiB left the server while the reader paused after \(read >> 20) MiB")
            // Reading on: the rest keeps coming.
            let before = read
            while read < before + (8 << 20), let chunk = try await iterator.next() { read += chunk.count }
            #expect(read >= before + (8 << 20))
        }
    }

    @Test("100,000 NDJSON lines decode in order; JSON text sequences (RFC 7464) too", arguments: TransportKind.allCases)
    func manyLines(_ kind: TransportKind) async throws {
        try await withSandbox { sandbox in
            let client = NetworkClient(transport: kind.make())
            var count = 0
            for try await line in client.jsonLines(ndjson(sandbox, ["count": 100_000]), as: Line.self) {
                #expect(line.index == count)
                count += 1
            }
            #expect(count == 100_000)
            var seq: [Int] = []
            for try await line in client.jsonLines(ndjson(sandbox, ["count": 5, "format": "jsonseq"]), as: Line.self) { seq.append(line.index) }
            #expect(seq == [0, 1, 2, 3, 4])
        }
    }

    @Test("lines() gives text lines without their ends; bytes() the exact body", arguments: TransportKind.allCases)
    func linesAndBytes(_ kind: TransportKind) async throws {
        try await withSandbox { sandbox in
            let client = NetworkClient(transport: kind.make())
            var lines: [String] = []
            for try await line in client.lines(ndjson(sandbox, ["count": 3])) { lines.append(line) }
            #expect(lines == (0..<3).map { #"{"index":\#($0),"text":"line \#($0) 서울"}"# })
            var body = Data()
            let size: Int64 = 5 << 20
            for try await chunk in client.bytes(TransferRoutes(sandbox: sandbox).file("b.bin", ["size": size])) { body.append(contentsOf: chunk) }
            #expect(body == TransferRoutes.content(size: size))
        }
    }

    @Test("silence past the idle timeout ends the stream with timedOut")
    func idleTimeout() async throws {
        try await withSandbox { sandbox in
            var received = 0
            await #expect(throws: NetworkError.networkError(URLError(.timedOut))) {
                for try await _ in NetworkClient().lines(
                    ndjson(sandbox, ["count": 10, "hangAfter": 2]), options: ByteStreamOptions(idleTimeout: .seconds(2)))
                {
                    received += 1
                }
            }
            #expect(received == 2)
        }
    }

    @Test(
        "a line longer than maxResponseBytes ends the stream with responseTooLarge; a bad line with decodingError", arguments: TransportKind.allCases)
    func limitsAndBadLines(_ kind: TransportKind) async throws {
        try await withSandbox { sandbox in
            var configuration = NetworkClient.Configuration(transport: kind.make())
            configuration.maxResponseBytes = 16
            let small = NetworkClient(configuration: configuration)
            // Each record is about 35 bytes: longer than a line may be.
            await #expect(throws: NetworkError.responseTooLarge(limit: 16)) {
                for try await _ in small.lines(ndjson(sandbox, ["count": 3])) {}
            }
            struct Wrong: Decodable, Sendable { var missing: String }
            let error = await #expect(throws: NetworkError.self) {
                for try await _ in NetworkClient(transport: kind.make()).jsonLines(ndjson(sandbox, ["count": 2]), as: Wrong.self) {}
            }
            #expect(error?.caseName == "decodingError")
        }
    }

    @Test("a line nested 100,000 deep is a decodingError, not a crash; a body that never ends a line stops at the limit")
    func hostileLines() async throws {
        let stub = StubTransport()
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "\n"
        stub.on(.get, "/deep", .init(status: 200, body: Data(deep.utf8)))
        let endpoint = URLEndpoint(URL(string: "https://lines.example.com/deep")!)!
        let error = await #expect(throws: NetworkError.self) {
            for try await _ in NetworkClient(transport: stub).jsonLines(endpoint, as: [Int].self) {}
        }
        #expect(error?.caseName == "decodingError")
        var configuration = NetworkClient.Configuration(transport: stub)
        configuration.maxResponseBytes = 1000
        stub.on(.get, "/deep", .init(status: 200, body: Data(repeating: 0x61, count: 5000)))
        await #expect(throws: NetworkError.responseTooLarge(limit: 1000)) {
            for try await _ in NetworkClient(configuration: configuration).lines(endpoint) {}
        }
    }

    @Test("an error status ends the stream before any line with the endpoint's error")
    func errorStatus() async throws {
        try await withSandbox { sandbox in
            var lines = 0
            await #expect(throws: NetworkError.notFound(404)) {
                for try await _ in NetworkClient().lines(TestEndpoint(baseURL: sandbox.baseURL, path: "/status/404")) { lines += 1 }
            }
            #expect(lines == 0)
        }
    }

    @Test("a stream's status is mapped once, with its body; a status the endpoint accepts streams its body")
    func statusMappedOnceWithItsBody() async throws {
        try await withSandbox { sandbox in
            let client = NetworkClient()
            let mapped = Mutex<[Data]>([])
            let counting = StatusMapping { response, body in
                mapped.withLock { $0.append(body) }
                return StatusMapping.standard.error(for: response, body: body)
            }
            let teapot = HTTPTask.requestParameters(["body": "no coffee"], encoding: .url)
            let refused = TestEndpoint(baseURL: sandbox.baseURL, path: "/status/418", task: teapot, statusMapping: counting)
            await #expect(throws: NetworkError.remoteError(418, "no coffee")) {
                for try await _ in client.lines(refused) {}
            }
            #expect(mapped.withLock { $0 } == [Data("no coffee".utf8)])

            let twoLines = HTTPTask.requestParameters(["body": "a\nb"], encoding: .url)
            let accepted = TestEndpoint(baseURL: sandbox.baseURL, path: "/status/418", task: twoLines, statusMapping: .acceptAll)
            var lines: [String] = []
            for try await line in client.lines(accepted) { lines.append(line) }
            #expect(lines == ["a", "b"])
        }
    }
}
