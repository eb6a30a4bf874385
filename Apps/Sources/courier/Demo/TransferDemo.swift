import Courier
import CourierCache
import CourierSandbox
import CourierTransfers
import Foundation

/// The transfers part of `courier demo`: a file uploaded as it is read (the server hashes what it
/// got), the same bytes downloaded, cut mid-way and resumed with `Range` in the same call and
/// checked against that hash, kept by a disk cache as a link and served from it, and NDJSON lines
/// as they arrive — each with its numbers.
enum TransferDemo {
    /// The sandbox's transfer routes.
    enum TransferAPI: Endpoint {
        /// `cutAt`: the first answer stops there and the connection is cut (`cuts=1`).
        case file(size: Int, cutAt: Int, key: String)
        case upload(URL)
        case lines(count: Int)
        case stats(key: String)

        var baseURL: URL { URL(string: "http://127.0.0.1:8080")! }
        var path: String {
            switch self {
            case .file: "/files/demo.bin"
            case .upload: "/upload"
            case .lines: "/ndjson"
            case .stats: "/files/stats"
            }
        }
        var method: HTTPMethod {
            if case .upload = self { return .put }
            return .get
        }
        var task: HTTPTask {
            switch self {
            case .file(let size, let cutAt, let key):
                return .requestParameters(["size": size, "seed": 27, "maxAge": 3600, "cutAt": cutAt, "cuts": 1, "key": key], encoding: .url)
            case .upload(let file): return .uploadFile(file)
            case .lines(let count): return .requestParameters(["count": count], encoding: .url)
            case .stats(let key): return .requestParameters(["key": key], encoding: .url)
            }
        }
    }

    struct Line: Decodable, Sendable {
        var index: Int
    }

    static func run(baseURL: URL, output: @escaping @Sendable (String) -> Void) async -> (steps: Int, failures: Int) {
        output("\n── Transfers: resumable downloads, a disk cache that links, uploads from a file, NDJSON ──")
        var steps = 0
        var failures = 0
        func check(_ ok: Bool, _ line: String) {
            steps += 1
            if !ok { failures += 1 }
            output("\(ok ? "✓" : "✗") \(line)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-demo-transfers-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let size = 8 << 20
        let content = Data(SandboxFileContent(size: Int64(size), seed: 27, version: 1).bytes(in: 0..<Int64(size)))
        let key = "demo-\(UUID().uuidString.prefix(8))"
        let plain = NetworkClient(configuration: .init(baseURL: baseURL))
        var hash = ""
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let source = folder.appendingPathComponent("upload.bin")
            try content.write(to: source)
            let progress = TransferProgress()
            let events = Task { () -> Int in
                var count = 0
                for await _ in progress { count += 1 }
                return count
            }
            let (answer, took) = try await CacheDemo.timed { try await plain.upload(TransferAPI.upload(source), progress: progress) }
            let receipt = try JSONDecoder().decode(UploadReceipt.self, from: answer.body)
            let seen = await events.value
            hash = receipt.sha256
            check(
                receipt.bytes == size && receipt.declaredLength == size,
                "\(size >> 20) MiB uploaded from a file as it is read (PUT, Content-Length: \(size)); the server hashed it: sha256:\(hash.prefix(12))…; \(seen) progress events; \(CacheDemo.micro(took))"
            )
        } catch {
            check(false, "upload → \(CacheDemo.describe(error))")
        }

        do {
            let storage = try DiskCacheStorage(directory: folder.appendingPathComponent("cache"))
            let client = NetworkClient(
                configuration: .init(
                    baseURL: baseURL,
                    middlewares: [RetryMiddleware(policy: RetryPolicy(baseDelay: .milliseconds(20))), CacheMiddleware(storage: storage)]))
            let cut = size * 2 / 5
            var options = DownloadOptions()
            options.checksum = "sha256:" + hash
            let (file, took) = try await CacheDemo.timed {
                try await client.download(
                    TransferAPI.file(size: size, cutAt: cut, key: key), to: folder.appendingPathComponent("first.bin"), options: options)
            }
            let stats = try await plain.request(TransferAPI.stats(key: key), as: TransferStats.self)
            check(
                file.bytes == Int64(size) && file.bytesFetched <= Int64(size + (64 << 10)) && file.sha256 == hash && stats.partial == 1,
                "the same \(size >> 20) MiB downloaded, cut at \(megabytes(Int64(cut))) → resumed in the same call with \(stats.ranges.last ?? "-") and If-Range, \(megabytes(file.bytesFetched)) fetched in all, the upload's SHA-256 checked, \(CacheDemo.micro(took))"
            )
            let second = folder.appendingPathComponent("second.bin")
            let (again, servedIn) = try await CacheDemo.timed {
                try await client.download(TransferAPI.file(size: size, cutAt: cut, key: key), to: second)
            }
            let after = try await plain.request(TransferAPI.stats(key: key), as: TransferStats.self)
            let linked = try FileManager.default.contentsOfDirectory(atPath: storage.directory.path).filter { $0.hasSuffix(".body") }.count == 1
            check(
                again.bytes == Int64(size) && after.requests == stats.requests && linked && (try? Data(contentsOf: second)) == content,
                "the disk cache kept the file as a hard link to it (no second copy); downloaded again from the cache in \(CacheDemo.micro(servedIn)), no request"
            )
        } catch {
            check(false, "download → \(CacheDemo.describe(error))")
        }

        do {
            var count = 0
            var ordered = true
            let (_, took) = try await CacheDemo.timed {
                for try await line in plain.jsonLines(TransferAPI.lines(count: 10_000), as: Line.self) {
                    ordered = ordered && line.index == count
                    count += 1
                }
            }
            check(count == 10_000 && ordered, "10,000 NDJSON lines decoded one by one as they arrived, in order, in \(CacheDemo.micro(took))")
        } catch {
            check(false, "NDJSON → \(CacheDemo.describe(error))")
        }
        return (steps, failures)
    }

    static func megabytes(_ bytes: Int64) -> String {
        String(format: "%.1f MiB", Double(bytes) / 1_048_576)
    }
}
