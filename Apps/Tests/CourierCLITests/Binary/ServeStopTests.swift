import Foundation
import IntegrationTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `courier serve` as a person runs it: a child process stopped by a signal.
@Suite("courier serve: stopping")
struct ServeStopTests {
    @Test("`courier serve` stops on SIGINT within the grace, although a client holds a connection without a request")
    func serveStopsOnInterrupt() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let serve = try await ChildProcess(
            try ChildProcess.courierBinary(), ["serve", "--port", "0", "--data-dir", data.path], stdout: .pipe, stderr: .pipe)
        let ended = Task { await serve.wait() }
        // The log line names the port (on standard error or output, whichever the logger uses).
        let port = await ChildProcess.listeningPort(in: [serve.output, serve.errors].compactMap { $0 }) ?? 0
        try #require(port > 0, "no \"listening on\" line")
        let spare = try LoopbackConnection(port: port)
        try await Task.sleep(for: .milliseconds(200))
        let start = ContinuousClock.now
        kill(serve.pid, SIGINT)
        let watchdog = Task {
            try await Task.sleep(for: .seconds(30))
            kill(serve.pid, SIGKILL)
        }
        let termination = await ended.value
        watchdog.cancel()
        #expect(termination == .exited(0))
        #expect(ContinuousClock.now - start < .seconds(15), "5 s of grace, then the spare connection is closed")
        #expect(await spare.read().closed)
    }
}
