import CourierSandbox
import Foundation
import IntegrationTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How `RunningSandbox.stop(grace:)` ends connections clients keep open: the sandbox of every
/// test is stopped this way, so a stop that waits on a client holds the test (and once held
/// whole `swift test` runs for a minute: a client's pool keeps idle connections 60 s).
@Suite("Sandbox: stopping with connections still open")
struct SandboxStopTests {
    /// A plain TCP connection to the sandbox, written to and read from on a Dispatch thread.

    @Test("a keep-alive connection left idle after its answer is closed by the stop at once")
    func idleKeepAlive() async throws {
        let sandbox = try await SandboxServer.start(logger: quietLogger)
        let connection = try LoopbackConnection(port: sandbox.port)
        connection.send("GET /delay/0 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let answer = await connection.read { $0.contains("\r\n\r\n") && $0.hasSuffix("}") || $0.hasSuffix("}\n") }
        #expect(answer.text.hasPrefix("HTTP/1.1 200"))
        let start = ContinuousClock.now
        await sandbox.stop(grace: .seconds(30))
        // Well within the grace (a stop took up to 6 s with every suite running on 2 cores).
        #expect(ContinuousClock.now - start < .seconds(15), "an idle connection holds nothing")
        #expect(await connection.read().closed)
    }

    @Test("a request still running when the grace ends, on a connection the client keeps open: the stop closes it and returns")
    func requestPastTheGrace() async throws {
        let sandbox = try await SandboxServer.start(logger: quietLogger)
        let connection = try LoopbackConnection(port: sandbox.port)
        connection.send("GET /delay/10000 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        try await Task.sleep(for: .milliseconds(200))
        let start = ContinuousClock.now
        await sandbox.stop(grace: .seconds(1))
        // Without closing the connections: until the client goes (a pool keeps one 60 s).
        let stopped = ContinuousClock.now - start
        #expect(stopped < .seconds(10))
        let after = await connection.read()
        #expect(after.closed, "stopped in \(stopped); then read \(after.text.count) bytes without a close")
    }

    @Test("a connection opened without a request (a client's pool opens spares): the stop closes it after the grace and returns")
    func connectionWithoutRequest() async throws {
        let sandbox = try await SandboxServer.start(logger: quietLogger)
        let connection = try LoopbackConnection(port: sandbox.port)
        try await Task.sleep(for: .milliseconds(200))
        let start = ContinuousClock.now
        await sandbox.stop(grace: .seconds(1))
        // Before the upgrade check has its first request, neither the graceful stop nor the
        // server's cancellation reaches this connection: without closing it the stop waited
        // until the client went (this one never goes: the stop never ended).
        #expect(ContinuousClock.now - start < .seconds(10))
        #expect(await connection.read().closed)
    }
}
