#if WebSocket  // the `WebSocket` trait: Package.swift
import AlanAPI
import Courier
import CourierSandbox
import IntegrationTestSupport
import CourierTesting
import CourierWebSocket
import Foundation
import Testing

@Suite("WebSocket connection over sockets", .tags(.timing))
struct WebSocketConnectionTests {
    @Test("text and binary messages flow both ways, in order; a 1 MB message arrives whole")
    func messagesFlow() async throws {
        try await withSandbox { sandbox in
            let connection = try await WebSocketClient(configuration: .init(url: webSocketURL(sandbox, "/ws/echo"))).connect()
            let big = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            let sent: [WebSocketMessage] = [.text("안녕 1"), .binary(Data([0, 1, 2, 255])), .text("three"), .binary(big)]
            for message in sent { try await connection.send(message) }
            var received: [WebSocketMessage] = []
            for try await message in connection.messages {
                received.append(message)
                if received.count == sent.count { break }
            }
            #expect(received == sent)
            await connection.close()
        }
    }

    @Test("the caller closes with a code: the iteration ends, the server sees the client leave, sending fails after")
    func callerClose() async throws {
        try await withSandbox { sandbox in
            let connection = try await WebSocketClient(configuration: .init(url: webSocketURL(sandbox, "/ws/echo"))).connect()
            try await connection.send(text: "hi")
            await connection.close(code: 4000, reason: "done")
            var remaining: [WebSocketMessage] = []
            for try await message in connection.messages { remaining.append(message) }
            #expect(remaining.count <= 1)
            await #expect(throws: NetworkError.webSocketError(.notConnected)) { try await connection.send(text: "late") }
            await eventually { try await tickerStats(sandbox).closedByClient == 1 }
            #expect(try await tickerStats(sandbox).open == 0)
        }
    }

    @Test("a server close code other than 1000/1001 ends the messages with webSocketError(.closed) carrying code and reason")
    func serverCloseCode() async throws {
        try await withSandbox { sandbox in
            let connection = try await WebSocketClient(configuration: .init(url: webSocketURL(sandbox, "/ws/echo"))).connect()
            try await connection.send(text: "close:4001:maintenance")
            await #expect(throws: NetworkError.webSocketError(.closed(code: 4001, reason: "maintenance"))) {
                for try await _ in connection.messages {}
            }
            #expect(connection.closeCode == 4001)

            let normal = try await WebSocketClient(configuration: .init(url: webSocketURL(sandbox, "/ws/echo"))).connect()
            try await normal.send(text: "close:1000:bye")
            var count = 0
            for try await _ in normal.messages { count += 1 }
            #expect(count == 0)
            #expect(normal.closeCode == 1000)
        }
    }

    @Test("refused connection, rejected handshake, handshake timeout and a bad URL each end in their own error, promptly")
    func connectFailures() async throws {
        let refusing = RefusingPort()
        let start = ContinuousClock.now
        await #expect(throws: NetworkError.networkError(URLError(.cannotConnectToHost))) {
            _ = try await WebSocketClient(configuration: .init(url: URL(string: "ws://127.0.0.1:\(refusing.port)/x")!)).connect()
        }
        // Refused at once when run alone; the whole suite starting on 2 cores delayed it 5–7 s.
        #expect(start.duration(to: .now) < .seconds(9))

        try await withSandbox { sandbox in
            try await setFaults(sandbox, "refuse=1")
            await #expect(throws: NetworkError.webSocketError(.handshakeRejected(status: nil))) {
                _ = try await WebSocketClient(configuration: .init(url: webSocketURL(sandbox, "/websocket/v1"))).connect()
            }
            #expect(try await tickerStats(sandbox).refused == 1)
        }

        let silent = SilentListener()
        let configuration = WebSocketConfiguration(url: URL(string: "ws://127.0.0.1:\(silent.port)/x")!, handshakeTimeout: .milliseconds(300))
        let timing = ContinuousClock.now
        await #expect(throws: NetworkError.networkError(URLError(.timedOut))) {
            _ = try await WebSocketClient(configuration: configuration).connect()
        }
        #expect(timing.duration(to: .now) < .seconds(5))

        await #expect(throws: NetworkError.invalidURL) {
            _ = try await WebSocketClient(configuration: .init(url: URL(string: "ftp://127.0.0.1/x")!)).connect()
        }
    }

    @Test("cancelling the reading task ends it with taskCancelled and closes the socket: the server sees the client leave")
    func cancelClosesSocket() async throws {
        try await withSandbox { sandbox in
            let connection = try await WebSocketClient(configuration: .init(url: webSocketURL(sandbox, "/websocket/v1?interval=20"))).connect()
            try await connection.send(text: UpbitSubscription.ticker(codes: ["KRW-BTC"]))
            let reader = Task { () async throws(NetworkError) -> Int in
                var count = 0
                for try await _ in connection.messages { count += 1 }
                return count
            }
            await eventually { try await tickerStats(sandbox).messagesSent >= 3 }
            #expect(try await tickerStats(sandbox).open == 1)
            reader.cancel()
            await #expect(throws: NetworkError.taskCancelled) { _ = try await reader.value }
            await eventually { try await tickerStats(sandbox).open == 0 }
            #expect(try await tickerStats(sandbox).closedByClient == 1)
        }
    }

    @Test("malformed frames end in webSocketError(.protocolViolation), not a crash", arguments: [("utf8", 1007), ("continuation", 1002)])
    func malformedFrames(kind: String, code: Int) async throws {
        try await withSandbox { sandbox in
            try await setFaults(sandbox, "malformed=1&malformedKind=\(kind)")
            let configuration = WebSocketConfiguration(url: webSocketURL(sandbox, "/websocket/v1?interval=1000"), closeTimeout: .seconds(2))
            let connection = try await WebSocketClient(configuration: configuration).connect()
            try await connection.send(text: UpbitSubscription.ticker(codes: ["KRW-BTC"]))
            var received = 0
            await #expect(throws: NetworkError.webSocketError(.protocolViolation(code: code))) {
                for try await _ in connection.messages { received += 1 }
            }
            #expect(received == 1)  // the snapshot came before the bad frame
        }
    }

    @Test("a frame with reserved bits set (WSClient answers it itself, with close 1002) also ends in protocolViolation")
    func reservedBits() async throws {
        try await withSandbox { sandbox in
            try await setFaults(sandbox, "malformed=1&malformedKind=rsv")
            let configuration = WebSocketConfiguration(url: webSocketURL(sandbox, "/websocket/v1?interval=1000"), closeTimeout: .seconds(2))
            let connection = try await WebSocketClient(configuration: configuration).connect()
            try await connection.send(text: UpbitSubscription.ticker(codes: ["KRW-BTC"]))
            var received: [WebSocketMessage] = []
            await #expect(throws: NetworkError.webSocketError(.protocolViolation(code: 1002))) {
                for try await message in connection.messages { received.append(message) }
            }
            #expect(received.count >= 1)  // the snapshot (and ticks sent before our close frame arrived)
            #expect(received.allSatisfy { $0.text?.contains("KRW-BTC") == true })
            await eventually { try await tickerStats(sandbox).open == 0 }
        }
    }

    @Test("a connection dropped without a close frame is networkConnectionLost, not a heartbeat timeout, with a heartbeat on")
    func abruptDropWithHeartbeat() async throws {
        try await withSandbox { sandbox in
            try await setFaults(sandbox, "dropAfterMs=200")
            let configuration = WebSocketConfiguration(url: webSocketURL(sandbox, "/websocket/v1?interval=20"), pingInterval: .seconds(5))
            let connection = try await WebSocketClient(configuration: configuration).connect()
            try await connection.send(text: UpbitSubscription.ticker(codes: ["KRW-BTC"]))
            await #expect(throws: NetworkError.networkError(URLError(.networkConnectionLost))) {
                for try await _ in connection.messages {}
            }
        }
    }

    @Test("credentials in the URL's query never reach a log line")
    func secretsStayOutOfLogs() async throws {
        try await withSandbox { sandbox in
            let capture = LogCapture()
            var logger = capture.logger("ws")
            logger.logLevel = .trace
            let url = URL(string: webSocketURL(sandbox, "/ws/echo").absoluteString + "?token=SECRET-123&x=1")!
            let connection = try await WebSocketClient(configuration: .init(url: url, headers: [.authorization: "Bearer SECRET-456"]), logger: logger)
                .connect()
            try await connection.send(text: "hello")
            for try await _ in connection.messages { break }
            await connection.close()
            #expect(capture.text.contains("websocket connecting"))
            #expect(!capture.text.contains("SECRET"))
        }
    }
}
#endif  // WebSocket
