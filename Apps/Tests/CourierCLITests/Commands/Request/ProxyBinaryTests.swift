import CourierSandbox
import Foundation
import IntegrationTestSupport
import Testing

/// `courier request --proxy/-x`, `--noproxy` and the proxy variables: the built binary through the
/// tests' own CONNECT proxy (Scripts/connect-proxy.py), which reports what it saw.
@Suite("courier request: proxies in curl's words", .serialized)
struct ProxyBinaryTests {
    /// The repository's root (this file is Apps/Tests/CourierCLITests/Commands/Request/…).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The proxy script started, its port read; `body` gets the port and a way to read its records.
    static func withProxy(_ arguments: [String], _ body: (Int, () -> [String]) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-proxy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("proxy.log")
        let child = try await ChildProcess(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", root.appendingPathComponent("Scripts/connect-proxy.py").path] + arguments,
            stdout: .file(log))
        defer { kill(child.pid, SIGKILL) }
        var port = 0
        for _ in 0..<100 where port == 0 {
            try await Task.sleep(for: .milliseconds(30))
            port = (try? String(contentsOf: log, encoding: .utf8))?.split(separator: "\n").first.flatMap { Int($0) } ?? 0
        }
        try #require(port > 0)
        try await body(port) { ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").dropFirst().map(String.init) }
        kill(child.pid, SIGKILL)
        _ = await child.wait()
    }

    static func courier(_ arguments: [String], environment extra: [String: String] = [:]) async throws -> ProcessRun {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-proxy-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var environment = ProcessInfo.processInfo.environment
        for name in ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY"] {
            environment[name] = nil
        }
        environment.merge(extra) { $1 }
        return try await runProcess(try ChildProcess.courierBinary(), arguments, environment: environment, scratch: folder)
    }

    @Test("--proxy http://user@host:port takes the password from COURIER_PROXY_PASSWORD (never the command line); CONNECT with Basic credentials")
    func proxyWithPasswordFromTheEnvironment() async throws {
        try await Self.withProxy(["--user", "alice", "--password", "s3cret"]) { port, records in
            try await RequestOutputTests.withSandbox { base in
                let run = try await Self.courier(
                    ["request", base + "/cookies", "--proxy", "http://alice@127.0.0.1:\(port)"], environment: ["COURIER_PROXY_PASSWORD": "s3cret"])
                #expect(run.status == 0, "\(run.errors)")
                #expect(records().contains { $0.contains("\"CONNECT\"") && $0.contains("Basic YWxpY2U6czNjcmV0") && $0.contains("\"status\": 200") })
                let wrong = try await Self.courier(
                    ["request", base + "/cookies", "-x", "http://alice@127.0.0.1:\(port)"], environment: ["COURIER_PROXY_PASSWORD": "nope"])
                #expect(wrong.status == 10, "\(wrong.errors)")
                #expect(!wrong.errors.contains("nope"))
            }
        }
    }

    @Test("the proxy variables as curl reads them: a loopback URL goes direct, HTTP_PROXY in upper case is ignored, --noproxy bypasses")
    func environmentAndNoProxy() async throws {
        try await RequestOutputTests.withSandbox { base in
            let dead = "http://127.0.0.1:1"
            let direct = try await Self.courier(
                ["request", base + "/cookies"], environment: ["http_proxy": dead, "HTTPS_PROXY": dead, "ALL_PROXY": dead])
            #expect(direct.status == 0, "loopback never through an environment proxy: \(direct.errors)")
            let bypassed = try await Self.courier(["request", base + "/cookies", "--proxy", dead, "--noproxy", "127.0.0.1"])
            #expect(bypassed.status == 0, "\(bypassed.errors)")
            let through = try await Self.courier(["request", base + "/cookies", "--proxy", dead])
            #expect(through.status == 10, "an explicit proxy carries loopback too (curl's -x): \(through.errors)")
        }
    }

    @Test("refused as bad usage: a proxy with --transport urlsession, SOCKS5 credentials, another scheme")
    func refused() async throws {
        for arguments in [
            ["--transport", "urlsession", "--proxy", "http://127.0.0.1:3128"], ["--proxy", "socks5://u:p@127.0.0.1:1080"],
            ["--proxy", "ftp://127.0.0.1:21"],
        ] {
            let run = try await Self.courier(["request", "http://127.0.0.1:9/x"] + arguments)
            #expect(run.status == 64, "\(arguments): \(run.errors)")
            #expect(!run.errors.contains(":p@"), "\(run.errors)")
        }
    }
}
