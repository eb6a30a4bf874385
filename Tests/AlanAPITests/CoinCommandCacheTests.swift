import Foundation
import Testing

/// `courier coin report` as a user runs it: the built binary, twice, on one cache folder.
@Suite("courier coin report: the overview in the shared disk cache")
struct CoinCommandCacheTests {
    /// `.build/debug/courier`, beside this test bundle.
    static func binary() throws -> URL {
        let candidate = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("courier")
        return try #require(FileManager.default.isExecutableFile(atPath: candidate.path) ? candidate : nil,
                            "the courier binary is not built beside the tests: run `swift build --build-tests` first")
    }

    /// Runs `courier arguments…` with `XDG_CACHE_HOME` = `cacheHome`; its exit status and standard error.
    static func courier(_ arguments: [String], cacheHome: URL) async throws -> (status: Int32, errors: String) {
        let process = Process()
        process.executableURL = try binary()
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CACHE_HOME"] = cacheHome.path
        process.environment = environment
        let errorFile = cacheHome.appendingPathComponent("err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        let errors = try FileHandle(forWritingTo: errorFile)
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        // Waits through terminationHandler: a blocking wait would hold a concurrency thread.
        let status = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int32, any Error>) in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        try errors.close()
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
