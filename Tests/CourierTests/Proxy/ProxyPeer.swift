import Foundation
import IntegrationTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A proxy process for one test: `Scripts/connect-proxy.py` (the tests' own CONNECT proxy, which
/// reports each request) or PyPI's `pproxy` (HTTP and SOCKS5), both installed or found by
/// `Scripts/test.sh`. Stopped (killed) when the test ends.
final class ProxyPeer: Sendable {
    let port: Int
    private let child: ChildProcess
    private let lines = Mutex<[String]>([])

    /// What the tests' own proxy reported: one record per request.
    struct Record: Decodable, Equatable {
        var method: String
        var target: String
        var authorization: String?
        var status: Int
    }

    /// The repository's root (this file is Tests/CourierTests/Proxy/ProxyPeer.swift).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `Scripts/connect-proxy.py` with `arguments`.
    static func connectProxy(_ arguments: [String] = []) async throws -> ProxyPeer {
        let script = root.appendingPathComponent("Scripts/connect-proxy.py").path
        return try await start(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script] + arguments) { Int($0) }
    }

    /// `pproxy -l SCHEME://127.0.0.1:0` (e.g. `socks5`, `http+socks5`).
    static func pproxy(_ scheme: String) async throws -> ProxyPeer {
        let local = root.appendingPathComponent(".build-python/bin/pproxy")
        let executable = FileManager.default.isExecutableFile(atPath: local.path) ? local : URL(fileURLWithPath: "/usr/bin/env")
        let arguments = (executable == local ? [] : ["pproxy"]) + ["-l", "\(scheme)://127.0.0.1:0", "-v"]
        // "Serving on ipv? 127.0.0.1:39403 by socks5"
        return try await start(executable, arguments) { line in
            guard line.hasPrefix("Serving on") else { return nil }
            return line.split(separator: " ").first { $0.hasPrefix("127.0.0.1:") }.flatMap { Int($0.dropFirst("127.0.0.1:".count)) }
        }
    }

    /// Whether `pproxy` can be run (Scripts/test.sh installs it in .build-python).
    static var pproxyAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: root.appendingPathComponent(".build-python/bin/pproxy").path)
            || system("pproxy --version >/dev/null 2>&1") == 0
    }

    private static func start(_ executable: URL, _ arguments: [String], port: @escaping @Sendable (String) -> Int?) async throws -> ProxyPeer {
        let child = try await ChildProcess(executable, arguments, stdout: .pipe, stderr: .inherit)
        let output = try #require(child.output)
        let (found, rest) = await withCheckedContinuation { (continuation: CheckedContinuation<(Int, [String]), Never>) in
            DispatchQueue.global().async {
                var line = Data()
                while let byte = try? output.read(upToCount: 1), !byte.isEmpty {
                    if byte == Data("\n".utf8) {
                        if let value = port(String(decoding: line, as: UTF8.self)) {
                            continuation.resume(returning: (value, []))
                            return
                        }
                        line = Data()
                    } else {
                        line.append(byte)
                    }
                }
                continuation.resume(returning: (0, []))
            }
        }
        let peer = ProxyPeer(port: found, child: child)
        peer.lines.withLock { $0 = rest }
        // Later lines (the reports) are collected as they come.
        DispatchQueue.global().async { [peer] in
            var line = Data()
            while let byte = try? output.read(upToCount: 1), !byte.isEmpty {
                if byte == Data("\n".utf8) {
                    let text = String(decoding: line, as: UTF8.self)
                    peer.lines.withLock { $0.append(text) }
                    line = Data()
                } else {
                    line.append(byte)
                }
            }
        }
        try #require(found > 0, "the proxy did not say its port")
        return peer
    }

    private init(port: Int, child: ChildProcess) {
        self.port = port
        self.child = child
    }

    /// The lines the proxy printed after its port.
    var output: [String] { lines.withLock { $0 } }

    /// The tests' own proxy's records so far.
    var records: [Record] { output.compactMap { try? JSONDecoder().decode(Record.self, from: Data($0.utf8)) } }

    func stop() async {
        kill(child.pid, SIGKILL)
        _ = await child.wait()
    }
}
