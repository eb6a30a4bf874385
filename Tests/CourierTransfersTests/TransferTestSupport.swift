import Courier
import CourierSandbox
import CourierTransfers
import Crypto
import Foundation
import IntegrationTestSupport

/// The sandbox's transfer routes as endpoints, and what the tests check files against.
struct TransferRoutes {
    let sandbox: RunningSandbox

    /// `GET /files/NAME` with `query` (size, seed, version, cutAt, pace, validator, weak, ranges, changing, key).
    func file(_ name: String = "file.bin", _ query: RequestParameters, timeout: Duration? = nil) -> TestEndpoint {
        TestEndpoint(baseURL: sandbox.baseURL, path: "/files/\(name)", task: .requestParameters(query, encoding: .url), timeout: timeout)
    }

    /// What the sandbox counted for `key`.
    func stats(_ key: String) async throws -> TransferStats {
        try await NetworkClient().request(
            TestEndpoint(baseURL: sandbox.baseURL, path: "/files/stats", task: .requestParameters(["key": key], encoding: .url)))
    }

    /// The bytes `/files/…?size=&seed=&version=` serves.
    static func content(size: Int64, seed: UInt64 = 0, version: UInt64 = 1) -> Data {
        Data(SandboxFileContent(size: size, seed: seed, version: version).bytes(in: 0..<size))
    }
}

/// A fresh directory for one test's files, removed afterwards.
struct ScratchDirectory: ~Copyable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("courier-transfer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// The names in the directory, sorted.
    var names: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted() }
}

/// A file's permission bits.
func permissions(_ url: URL) -> Int? {
    (try? FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue
}

/// A unique key for the sandbox's ledger.
func transferKey(_ label: String) -> String { "\(label)-\(UUID().uuidString.prefix(8))" }

/// SHA-256 in lowercase hex, as the sandbox's upload receipts and `DownloadedFile.sha256` give it.
enum SHA256Hex {
    static func of(_ data: Data) -> String? {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }
}
