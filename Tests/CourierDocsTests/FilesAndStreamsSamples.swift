// Mirrors: Sources/Courier/Courier.docc/Articles/files-and-streams.md
//
// The article's code, line for line (DocsSyncTests checks that every sample is here). Compiled
// only: the samples read assets.example.com.

import Courier
import CourierTransfers
import Foundation

enum Assets: Endpoint {
    /// `GET /files/{name}` → the file's bytes
    case file(name: String)
    /// `PUT /upload` ← a file
    case upload(URL)

    var baseURL: URL { URL(string: "https://assets.example.com")! }
    var path: String {
        switch self {
        case .file(let name): "/files/\(name)"
        case .upload: "/upload"
        }
    }
    var method: HTTPMethod {
        switch self {
        case .file: .get
        case .upload: .put
        }
    }
    var task: HTTPTask {
        switch self {
        case .file: .requestPlain
        case .upload(let url): .uploadFile(url, contentType: "application/zip")
        }
    }
}

struct Chunk: Decodable, Sendable {
    let response: String
    let done: Bool
}

enum FilesAndStreamsArticle {
    static func download(client: NetworkClient, target: URL) async throws {
        let file = try await client.download(Assets.file(name: "archive.zip"), to: target)
        print(file.bytes, file.resumedFrom)
    }

    static func resume(client: NetworkClient, target: URL, expectedHex: String) async throws {
        var options = DownloadOptions()
        options.retry = RetryPolicy(maxAttempts: 5)                 // a cut connection: resume up to 4 times
        options.checksum = "sha256:" + expectedHex                  // checked before the rename
        let file = try await client.download(Assets.file(name: "archive.zip"), to: target, options: options)
        print(file.bytes)
    }

    static func progress(client: NetworkClient, target: URL) async throws {
        let progress = TransferProgress()
        async let saved = client.download(Assets.file(name: "archive.zip"), to: target, progress: progress)
        for await snapshot in progress {
            if let fraction = snapshot.fractionCompleted {
                print("\(Int(fraction * 100))%", snapshot.estimatedTimeRemaining ?? .zero)
            } else {
                print(snapshot.bytesDone, "bytes")                  // no total: no percentage, no ETA
            }
        }
        let file = try await saved
        print(file.bytes)
    }

    static func upload(client: NetworkClient, archiveURL: URL) async throws {
        let progress = TransferProgress()
        async let answer = client.upload(Assets.upload(archiveURL), progress: progress)
        for await snapshot in progress { print(snapshot.bytesDone) }
        print(try await answer.statusCode)
    }

    static func lines(client: NetworkClient) async throws {
        for try await chunk in client.jsonLines(Assets.file(name: "generate.ndjson"), as: Chunk.self) {
            print(chunk.response, terminator: "")
            if chunk.done { break }
        }
    }
}
