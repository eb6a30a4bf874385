#if WebSocket  // the `WebSocket` trait: Package.swift
import Courier
import IntegrationTestSupport
import CourierWebSocket
import Foundation
import Synchronization
import Testing

/// Python's `websockets` (Scripts/websockets-peer.py), started once as a separate process on
/// loopback; it exits when this process does (its stdin closes). Reading its port blocks on a
/// Dispatch thread, never on the concurrency pool (only as many threads as cores).
final class PythonPeer: Sendable {
    let port: Int
    /// The peer process; its standard input stays open while this object lives.
    private let child: ChildProcess

    /// The one peer the suite uses.
    static let shared = Task { try await PythonPeer.start() }

    /// Whether `python3` with the `websockets` package is here (`Scripts/test.sh` installs it).
    static func available() async -> Bool {
        let check = try? await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", "import websockets.asyncio.server"])
        return check == .exited(0)
    }

    private static func start() async throws -> PythonPeer {
        let script = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scripts/websockets-peer.py")
        let child = try await ChildProcess(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path], stdin: .pipe, stdout: .pipe, stderr: .inherit)
        let output = try #require(child.output)
        let port = await offPool {
            var line = Data()
            while let byte = try? output.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
                line.append(byte)
            }
            return Int(String(decoding: line, as: UTF8.self)) ?? 0
        }
        return PythonPeer(port: port, child: child)
    }

    private init(port: Int, child: ChildProcess) {
        self.port = port
        self.child = child
    }

    /// Runs blocking `work` on a Dispatch thread.
    private static func offPool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: work()) }
        }
    }

    func url(_ path: String) -> URL { URL(string: "ws://127.0.0.1:\(port)\(path)")! }

    /// The close codes and reasons clients sent, oldest first.
    func closes() async throws -> [[String: String]] {
        let connection = try await WebSocketClient(configuration: .init(url: url("/report"))).connect()
        var result: [[String: String]] = []
        for try await message in connection.messages {
            let list = try JSONSerialization.jsonObject(with: message.data) as? [[String: Any]] ?? []
            result = list.map { ["path": "\($0["path"] ?? "")", "code": "\($0["code"] ?? "")", "reason": "\($0["reason"] ?? "")"] }
            break
        }
        await connection.close()
        return result
    }

}

@Suite("WebSocket conformance against Python's websockets", .serialized)
struct WebsocketsPeerConformanceTests {
    let peer: PythonPeer

    init() async throws {
        // Never skipped for a missing tool: Scripts/test.sh installs the peer's package.
        try #require(
            await PythonPeer.available(),
            "python3 with websockets is missing: run the tests with Scripts/test.sh (it installs Python's websockets in .build-python)")
        peer = try await PythonPeer.shared.value
        #expect(peer.port > 0)
    }

    func connect(_ path: String, pingInterval: Duration? = nil) async throws -> WebSocketConnection {
        try await WebSocketClient(configuration: .init(url: peer.url(path), pingInterval: pingInterval)).connect()
    }

    @Test("text (UTF-8, Korean) and binary messages echo unchanged; 1 MB of each too")
    func echo() async throws {
        let connection = try await connect("/echo")
        let megabyte = String(repeating: "가나다라마바사아자차카타파하", count: (1 << 20) / 42)
        let blob = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let sent: [WebSocketMessage] = [.text("hello"), .text("서울 ✓"), .binary(Data([0, 255, 1])), .text(megabyte), .binary(blob), .text("")]
        for message in sent { try await connection.send(message) }
        var received: [WebSocketMessage] = []
        for try await message in connection.messages {
            received.append(message)
            if received.count == sent.count { break }
        }
        #expect(received == sent)
        await connection.close()
    }

    @Test("fragmented messages from the peer arrive whole")
    func fragmented() async throws {
        let connection = try await connect("/fragmented")
        var received: [WebSocketMessage] = []
        for try await message in connection.messages {
            received.append(message)
            if received.count == 2 { break }
        }
        #expect(received == [.text("fragmented ✓"), .binary(Data([0, 1, 2, 3, 255]))])
        await connection.close()
    }

    @Test(
        "the peer's close codes: 1000 and 1001 end normally, others are webSocketError(.closed) with code and reason",
        arguments: [1000, 1001, 1011, 4002])
    func peerCloses(code: Int) async throws {
        let connection = try await connect("/close/\(code)")
        if code == 1000 || code == 1001 {
            var count = 0
            for try await _ in connection.messages { count += 1 }
            #expect(count == 0)
        } else {
            await #expect(throws: NetworkError.webSocketError(.closed(code: code, reason: "peer says bye"))) {
                for try await _ in connection.messages {}
            }
        }
        #expect(connection.closeCode == code)
    }

    @Test("the client's close code and reason reach the peer")
    func clientCloseCode() async throws {
        let connection = try await connect("/echo")
        try await connection.send(text: "x")
        await connection.close(code: 4005, reason: "done here")
        await eventually { try await peer.closes().contains { $0["code"] == "4005" && $0["reason"] == "done here" } }
    }

    @Test("invalid UTF-8 from the peer: protocolViolation(1007) here, and the peer receives close 1007")
    func invalidUTF8() async throws {
        let connection = try await connect("/invalid-utf8")
        await #expect(throws: NetworkError.webSocketError(.protocolViolation(code: 1007))) {
            for try await _ in connection.messages {}
        }
        await eventually { try await peer.closes().contains { $0["path"] == "/invalid-utf8" && $0["code"] == "1007" } }
    }

    @Test(
        "pings both ways: the peer pings every 200 ms and the client answers while nobody reads; the client's heartbeat gets pongs; after 2 s both are still up"
    )
    func pingsBothWays() async throws {
        let connection = try await connect("/echo", pingInterval: .milliseconds(500))
        try await Task.sleep(for: .seconds(2))
        try await connection.send(text: "still here")
        var iterator = connection.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("still here"))
        // The peer measured a round trip: it got a pong to one of its pings.
        try await connection.send(text: "latency?")
        let latency = try #require(try await iterator.next()?.text.flatMap(Double.init))
        #expect(latency > 0)
        await connection.close()
        #expect(connection.closeCode == 1000)
    }
}
#endif  // WebSocket
