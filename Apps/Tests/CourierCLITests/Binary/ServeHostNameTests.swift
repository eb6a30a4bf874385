import Foundation
import IntegrationTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `courier serve --host-name NAME`: the built binary answers to the names it is given, and to no others.
@Suite("courier serve --host-name")
struct ServeHostNameTests {
    @Test("a --host-name is answered at the sandbox's port; another name is refused with 421")
    func hostNames() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("serve-names-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let serve = try await ChildProcess(
            try ChildProcess.courierBinary(),
            ["serve", "--port", "0", "--data-dir", data.path, "--host-name", "devbox.test", "--host-name", "DEVBOX2.test"],
            stdout: .pipe, stderr: .pipe)
        let ended = Task { await serve.wait() }
        let watchdog = Task {
            try await Task.sleep(for: .seconds(60))
            kill(serve.pid, SIGKILL)
        }
        defer { watchdog.cancel() }
        let port = await ChildProcess.listeningPort(in: [serve.output, serve.errors].compactMap { $0 }) ?? 0
        guard port > 0 else {
            kill(serve.pid, SIGKILL)
            Issue.record("no \"listening on\" line")
            return
        }
        for host in ["devbox.test:\(port)", "devbox2.test:\(port)", "127.0.0.1:\(port)", "localhost:\(port)"] {
            let answer = try await LoopbackConnection.get("/json", host: host, port: port)
            #expect(answer.status == 200, "Host: \(host) → \(answer.text)")
        }
        for host in ["other.test:\(port)", "devbox.test:\(port == 1 ? 2 : 1)"] {
            let answer = try await LoopbackConnection.get("/json", host: host, port: port)
            #expect(answer.status == 421, "Host: \(host) → \(answer.text)")
        }
        kill(serve.pid, SIGTERM)
        #expect(await ended.value == .exited(0))
    }

    @Test("a --host-name with a port is a usage error (64): the port is always the sandbox's")
    func portRefused() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("serve-names-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let status = try await ChildProcess.run(
            try ChildProcess.courierBinary(), ["serve", "--port", "0", "--data-dir", data.path, "--host-name", "devbox.test:8080"])
        #expect(status == .exited(64))
    }
}
