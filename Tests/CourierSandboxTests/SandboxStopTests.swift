import CourierSandbox
import CourierTestSupport
import Foundation
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
    final class RawConnection: Sendable {
        let descriptor: Int32

        init(port: Int) throws {
            let descriptor = LoopbackSocket.make()
            self.descriptor = descriptor
            let connected = LoopbackSocket.withAddress(port: port) { address, length in connect(descriptor, address, length) }.result
            try #require(connected == 0, "connect: \(errno)")
            var timeout = timeval(tv_sec: 15, tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }

        deinit { close(descriptor) }

        func send(_ text: String) {
            LoopbackSocket.send(descriptor, Array(text.utf8))
        }

        /// Reads until `done` holds for what came, the server closes (true), or 15 s pass (false).
        func read(until done: @escaping @Sendable (String) -> Bool = { _ in false }) async -> (text: String, closed: Bool) {
            let descriptor = self.descriptor
            return await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    var received: [UInt8] = []
                    var buffer = [UInt8](repeating: 0, count: 65536)
                    while true {
                        let count = recv(descriptor, &buffer, buffer.count, 0)
                        if count > 0 {
                            received += buffer[..<count]
                            if done(String(decoding: received, as: UTF8.self)) { break }
                            continue
                        }
                        // 0: the server closed; a reset is a close too; a timeout is not.
                        let closed = count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)
                        return continuation.resume(returning: (String(decoding: received, as: UTF8.self), closed))
                    }
                    continuation.resume(returning: (String(decoding: received, as: UTF8.self), false))
                }
            }
        }
    }

    @Test("a keep-alive connection left idle after its answer is closed by the stop at once")
    func idleKeepAlive() async throws {
        let sandbox = try await SandboxServer.start(logger: quietLogger)
        let connection = try RawConnection(port: sandbox.port)
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
        let connection = try RawConnection(port: sandbox.port)
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
        let connection = try RawConnection(port: sandbox.port)
        try await Task.sleep(for: .milliseconds(200))
        let start = ContinuousClock.now
        await sandbox.stop(grace: .seconds(1))
        // Before the upgrade check has its first request, neither the graceful stop nor the
        // server's cancellation reaches this connection: without closing it the stop waited
        // until the client went (this one never goes: the stop never ended).
        #expect(ContinuousClock.now - start < .seconds(10))
        #expect(await connection.read().closed)
    }

    @Test("`courier serve` stops on SIGINT within the grace, although a client holds a connection without a request")
    func serveStopsOnInterrupt() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let serve = try ChildProcess(try ChildProcess.courierBinary(), ["serve", "--port", "0", "--data-dir", data.path], stdout: .pipe, stderr: .pipe)
        let ended = Task { await serve.wait() }
        // The log line names the port (on standard error or output, whichever the logger uses).
        let port = await Self.listeningPort(in: [serve.output, serve.errors].compactMap { $0 }) ?? 0
        try #require(port > 0, "no \"listening on\" line")
        let spare = try RawConnection(port: port)
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

    /// The port of the first "listening on http://host:port" line read from any of `handles`
    /// (each read on its own Dispatch thread); nil when all of them end without one.
    static func listeningPort(in handles: [FileHandle]) async -> Int? {
        let state = Mutex<(answered: Bool, ended: Int)>((false, 0))
        return await withCheckedContinuation { (continuation: CheckedContinuation<Int?, Never>) in
            @Sendable func answer(_ port: Int?) {
                let first = state.withLock { state -> Bool in
                    if port == nil { state.ended += 1 }
                    guard !state.answered, port != nil || state.ended == handles.count else { return false }
                    state.answered = true
                    return true
                }
                if first { continuation.resume(returning: port) }
            }
            for handle in handles {
                DispatchQueue.global().async {
                    var text = ""
                    while let chunk = try? handle.read(upToCount: 1), !chunk.isEmpty {
                        text += String(decoding: chunk, as: UTF8.self)
                        guard text.hasSuffix("\n") else { continue }
                        if let range = text.range(of: "listening on http://") {
                            let address = text[range.upperBound...].prefix { $0 != " " && $0 != "\n" }
                            return answer(address.split(separator: ":").last.flatMap { Int($0) })
                        }
                        text = ""
                    }
                    answer(nil)
                }
            }
        }
    }
}
