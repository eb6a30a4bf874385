import Courier
import CourierSandbox
import CourierTransfers
import Foundation
import IntegrationTestSupport
import Testing

/// File and stream uploads against the sandbox's `/upload` sink, over both transports.
@Suite("Uploads: files and byte streams, streamed")
struct UploadTests {
    func upload(_ sandbox: RunningSandbox, _ task: HTTPTask, method: HTTPMethod = .put, key: String? = nil) -> TestEndpoint {
        // Megabytes through a loaded machine's loopback: a deadline well past the default 30 s, which
        // these tests do not measure.
        var endpoint = TestEndpoint(baseURL: sandbox.baseURL, path: "/upload", method: method, task: task, timeout: .seconds(300))
        if let key { endpoint.task = .requestComposite(query: ["key": key], body: task) }
        return endpoint
    }

    @Test("a file larger than maxResponseBytes arrives whole (the sink's SHA-256 equal), with its length", arguments: TransportKind.allCases)
    func fileUpload(_ kind: TransportKind) async throws {
        try await withSandbox { sandbox in
            let scratch = try ScratchDirectory()
            let size: Int64 = 20 << 20
            let data = TransferRoutes.content(size: size, seed: 3)
            let source = scratch.file("up.bin")
            try data.write(to: source)
            var configuration = NetworkClient.Configuration(transport: kind.make())
            configuration.maxResponseBytes = 1 << 20
            let client = NetworkClient(configuration: configuration)
            let receipt: UploadReceipt = try await client.request(upload(sandbox, .uploadFile(source, contentType: "application/x-test")))
            #expect(receipt.bytes == Int(size))
            #expect(receipt.sha256 == SHA256Hex.of(data))
            #expect(receipt.declaredLength == Int(size))
            #expect(receipt.contentType == "application/x-test")
        }
    }

    @Test("an AsyncSequence of bytes of unknown length is streamed (chunked) and arrives whole", arguments: TransportKind.allCases)
    func streamUpload(_ kind: TransportKind) async throws {
        try await withSandbox { sandbox in
            let chunk = [UInt8](repeating: 0x5A, count: 64 * 1024)
            let count = 160  // 10 MiB
            let bytes = AsyncStream<ArraySlice<UInt8>> { continuation in
                for _ in 0..<count { continuation.yield(chunk[...]) }
                continuation.finish()
            }
            var configuration = NetworkClient.Configuration(transport: kind.make())
            configuration.maxResponseBytes = 1 << 20
            let client = NetworkClient(configuration: configuration)
            let receipt: UploadReceipt = try await client.request(
                upload(sandbox, .uploadStream(bytes.map { $0 }, length: nil), method: .post))
            #expect(receipt.bytes == chunk.count * count)
            #expect(receipt.sha256 == SHA256Hex.of(Data(repeating: 0x5A, count: chunk.count * count)))
        }
    }

    @Test("a file upload is sent again on a retry; a one-shot stream is not (never buffered for a replay)")
    func replayOnlyWhatCanBeReopened() async throws {
        try await withSandbox { sandbox in
            let scratch = try ScratchDirectory()
            let source = scratch.file("retry.bin")
            try Data(repeating: 1, count: 300_000).write(to: source)
            let client = NetworkClient(configuration: .init(middlewares: [RetryMiddleware(policy: RetryPolicy(baseDelay: .milliseconds(5)))]))
            let flaky = transferKey("upload-flaky")
            // `/flaky/KEY?failures=1` answers 503 once; the retry sends the file again.
            let file = TestEndpoint(
                baseURL: sandbox.baseURL, path: "/flaky/\(flaky)", method: .put,
                task: .requestComposite(query: ["failures": 1], body: .uploadFile(source)))
            #expect(try await client.response(file).statusCode == 200)
            let once = transferKey("upload-once")
            let stream = AsyncStream<ArraySlice<UInt8>> { continuation in
                continuation.yield([1, 2, 3][...])
                continuation.finish()
            }
            let oneShot = TestEndpoint(
                baseURL: sandbox.baseURL, path: "/flaky/\(once)", method: .put,
                task: .requestComposite(query: ["failures": 1], body: .uploadStream(stream.map { $0 }, length: 3)))
            await #expect(throws: NetworkError.serviceUnavailable(503)) { _ = try await client.response(oneShot) }
        }
    }

    @Test("upload progress: the request body's bytes, ordered, finished at the file's size", arguments: TransportKind.allCases)
    func uploadProgress(_ kind: TransportKind) async throws {
        try await withSandbox { sandbox in
            let scratch = try ScratchDirectory()
            let size: Int64 = 8 << 20
            let source = scratch.file("p.bin")
            try TransferRoutes.content(size: size).write(to: source)
            let client = NetworkClient(transport: kind.make())
            let progress = TransferProgress(interval: .milliseconds(1))
            async let answer = client.upload(upload(sandbox, .uploadFile(source)), progress: progress)
            var snapshots: [TransferProgress.Snapshot] = []
            for await snapshot in progress { snapshots.append(snapshot) }
            let response = try await answer
            let receipt = try JSONDecoder().decode(UploadReceipt.self, from: response.body)
            #expect(receipt.bytes == Int(size))
            #expect(zip(snapshots, snapshots.dropFirst()).allSatisfy { $0.bytesDone <= $1.bytesDone })
            #expect(snapshots.last?.isFinished == true && snapshots.last?.bytesDone == size && snapshots.last?.bytesExpected == size)
        }
    }
}
