import Foundation
import IntegrationTestSupport
import Testing

/// `courier coin report` as a user runs it: the built binary, twice, on one cache folder.
@Suite("courier coin report: the overview in the shared disk cache")
struct CoinCommandCacheTests {

    /// Runs `courier arguments…` with `XDG_CACHE_HOME` = `cacheHome`; its exit status and standard error.
    static func courier(_ arguments: [String], cacheHome: URL) async throws -> (status: Int32, errors: String) {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CACHE_HOME"] = cacheHome.path
        let errorFile = cacheHome.appendingPathComponent("err-\(UUID().uuidString)")
        let status = try await ChildProcess.run(try ChildProcess.courierBinary(), arguments, environment: environment, stderr: .file(errorFile))
            .status
        return (status, String(decoding: try Data(contentsOf: errorFile), as: UTF8.self))
    }

    @Test("a second run reads the overview from $XDG_CACHE_HOME/courier/alan/sandbox (a DiskCacheStorage entry), not the network")
    func secondRunUsesTheDiskCache() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("coin-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let arguments = ["coin", "report", "BTC", "--sandbox", "--timeline", "--sandbox-latency", "0,0,0"]
        let first = try await Self.courier(arguments, cacheHome: home)
        #expect(first.status == 0, "\(first.errors)")
        #expect(!first.errors.contains("overview from the cache"))
        let folder = home.appendingPathComponent("courier/alan/sandbox")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(files.filter { $0.hasSuffix(".entry") }.count == 1, "\(files)")
        let second = try await Self.courier(arguments, cacheHome: home)
        #expect(second.status == 0, "\(second.errors)")
        #expect(second.errors.contains("(overview from the cache: no request)"))
    }
}
