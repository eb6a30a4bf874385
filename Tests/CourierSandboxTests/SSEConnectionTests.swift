import AsyncHTTPClient
import CourierSandbox
import Foundation
import IntegrationTestSupport
import NIOCore
import Testing

/// How `/sse` streams end: cut, hung, left by the client; and `/sse/echo`'s exact bytes.
@Suite("Sandbox: server-sent event connections")
struct SSEConnectionTests {
    @Test("dropAfter=2 cuts the connection after two events: the client sees an error, the stats neither a completion nor a disconnect")
    func dropAfter() async throws {
        try await withSandbox { sandbox in
            let response = try await HTTPClient.shared.execute(
                sandbox.request(.GET, "/sse/events?count=10&dropAfter=2&key=drop"), timeout: .seconds(10))
            var received: [UInt8] = []
            await #expect(throws: (any Error).self) {
                for try await chunk in response.body { received += chunk.readableBytesView }
            }
            #expect(received == Array((SSEEventsTests.event(1) + SSEEventsTests.event(2)).utf8))
            let settled = await eventually { try await sandbox.json("/sse/stats?key=drop", as: SSEStats.self).open == 0 }
            #expect(settled)
            #expect(try await sandbox.json("/sse/stats?key=drop", as: SSEStats.self) == SSEStats(connections: 1))
        }
    }

    @Test("dropAfter counts the events of this connection: resumed after 4, dropAfter=1 sends only event 5")
    func dropAfterResumed() async throws {
        try await withSandbox { sandbox in
            let response = try await HTTPClient.shared.execute(
                sandbox.request(.GET, "/sse/events?count=10&dropAfter=1", headers: [("Last-Event-ID", "4")]), timeout: .seconds(10))
            var received: [UInt8] = []
            await #expect(throws: (any Error).self) {
                for try await chunk in response.body { received += chunk.readableBytesView }
            }
            #expect(received == Array(SSEEventsTests.event(5).utf8))
        }
    }

    @Test("hangAfter=2 goes silent with the connection open; the client leaving shows as a disconnect within a second")
    func hangThenLeave() async throws {
        try await withSandbox { sandbox in
            let request = sandbox.request(.GET, "/sse/events?count=10&hangAfter=2&key=hang")
            let stream = try await OpenStream.open(request) { $0.occurrences(of: "\n\n") >= 2 }
            #expect(stream.received == Array((SSEEventsTests.event(1) + SSEEventsTests.event(2)).utf8))
            try await Task.sleep(for: .milliseconds(300))
            let hanging = try await sandbox.json("/sse/stats?key=hang", as: SSEStats.self)
            #expect(hanging == SSEStats(connections: 1, open: 1))

            stream.task.cancel()
            let seen = await eventually(timeout: .seconds(5)) {
                try await sandbox.json("/sse/stats?key=hang", as: SSEStats.self).disconnects == 1
            }
            #expect(seen, "no disconnect within 5 s of the client leaving (the hang is 120 s)")
            #expect(try await sandbox.json("/sse/stats?key=hang", as: SSEStats.self) == SSEStats(connections: 1, open: 0, disconnects: 1))
        }
    }

    @Test("a client leaving a slow stream (intervalMs=30000) between events is seen long before the next write")
    func leaveBetweenEvents() async throws {
        try await withSandbox { sandbox in
            let stream = try await OpenStream.open(sandbox.request(.GET, "/sse/events?count=5&intervalMs=30000&key=slow")) {
                $0.occurrences(of: "\n\n") >= 1
            }
            #expect(stream.received == Array(SSEEventsTests.event(1).utf8))
            stream.task.cancel()
            let seen = await eventually(timeout: .seconds(5)) {
                try await sandbox.json("/sse/stats?key=slow", as: SSEStats.self).disconnects == 1
            }
            #expect(seen)
            #expect(try await sandbox.json("/sse/stats?key=slow", as: SSEStats.self).open == 0)
        }
    }

    @Test("stopping the sandbox ends a hanging stream at once instead of waiting out the hang")
    func stopEndsHang() async throws {
        let sandbox = try await SandboxServer.start(logger: quietLogger)
        let stream = try await OpenStream.open(sandbox.request(.GET, "/sse/events?hangAfter=1")) { $0.occurrences(of: "\n\n") >= 1 }
        let start = ContinuousClock.now
        await sandbox.stop()
        // The hang lasts 120 s; 15 s leaves room for a loaded 2-core machine (5.2–6.1 s seen
        // with a release build beside the whole suite).
        #expect(ContinuousClock.now - start < .seconds(15))
        stream.task.cancel()
    }

    @Test("a client that stops reading a 64 MB body but keeps the connection does not hold the stop for ever: the grace period ends it")
    func stopEndsStalledBody() async throws {
        let sandbox = try await SandboxServer.start(logger: quietLogger)
        let stream = try await OpenStream.open(sandbox.request(.GET, "/cache/stalled?bytes=67108864")) { $0.count >= 1 }
        let start = ContinuousClock.now
        await sandbox.stop(grace: .seconds(1))
        #expect(ContinuousClock.now - start < .seconds(10))  // without the grace bound: until the client goes (60 s here)
        stream.task.cancel()
    }

    @Test("streams end with Connection: close, and the next request on the same client still succeeds")
    func connectionClose() async throws {
        try await withSandbox { sandbox in
            for round in 1...5 {
                let answer = try await sandbox.send(.GET, "/sse/events?count=1&key=close")
                #expect(answer.status == 200 && answer.header("Connection") == "close", "round \(round)")
            }
            #expect(try await sandbox.json("/sse/stats?key=close", as: SSEStats.self) == SSEStats(connections: 5, completed: 5))
        }
    }

    @Test("/sse/echo answers exactly the bytes it was sent, as text/event-stream, whole or in pieces")
    func echo() async throws {
        try await withSandbox { sandbox in
            let tricky = Array("\u{FEFF}: comment\r\nid\rdata: a\r\n\r\nretry: x\n\ndata: b\r\ndata:  c\n\ndata: unterminated".utf8)
            let whole = try await sandbox.send(.POST, "/sse/echo", body: tricky)
            #expect(whole.status == 200 && whole.header("Content-Type") == "text/event-stream")
            #expect(whole.body == tricky)
            let pieces = try await sandbox.send(.POST, "/sse/echo?chunk=1&intervalMs=1", body: tricky)
            #expect(pieces.body == tricky)
            let empty = try await sandbox.send(.POST, "/sse/echo?chunk=3")
            #expect(empty.status == 200 && empty.body.isEmpty)
        }
    }

    @Test("/sse/echo?chunk=4&intervalMs=300 sends the pieces apart: the first arrives alone, the whole takes 1.2 s")
    func echoPieces() async throws {
        try await withSandbox { sandbox in
            let body = Array("data: 1\n\ndata: 2\n\n".utf8)  // 18 bytes: five pieces, four pauses
            let start = ContinuousClock.now
            let response = try await HTTPClient.shared.execute(
                sandbox.request(.POST, "/sse/echo?chunk=4&intervalMs=300", body: body), timeout: .seconds(30))
            var chunks: [[UInt8]] = []
            for try await chunk in response.body { chunks.append(Array(chunk.readableBytesView)) }
            #expect(chunks.first == Array(body.prefix(4)), "pieces arrive one by one")
            #expect(chunks.flatMap { $0 } == body)
            #expect(ContinuousClock.now - start >= .milliseconds(1200))
        }
    }
}
