#if WebSocket  // the `WebSocket` trait: Package.swift
import Courier
import CourierSandbox
import IntegrationTestSupport
import CourierWebSocket
import Foundation
import Synchronization
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `ws://` URL on the sandbox.
func webSocketURL(_ sandbox: RunningSandbox, _ path: String) -> URL {
    URL(string: "ws://\(sandbox.host):\(sandbox.port)\(path)")!
}

/// Sets the ticker stand-in's fault knobs (`POST /ticker/faults?…`).
func setFaults(_ sandbox: RunningSandbox, _ query: String) async throws {
    var request = URLRequest(url: URL(string: "\(sandbox.baseURL.absoluteString)/ticker/faults?\(query)")!)
    request.httpMethod = "POST"
    let (_, response) = try await URLSession.shared.data(for: request)
    #expect((response as? HTTPURLResponse)?.statusCode == 200)
}

/// What the stand-in saw (`GET /ticker/stats`).
struct TickerStats: Decodable {
    var handshakes: Int
    var refused: Int
    var opened: Int
    var open: Int
    var closedByClient: Int
    var droppedByServer: Int
    var subscriptions: Int
    var messagesSent: Int
}

func tickerStats(_ sandbox: RunningSandbox) async throws -> TickerStats {
    let (data, _) = try await URLSession.shared.data(from: URL(string: "\(sandbox.baseURL.absoluteString)/ticker/stats")!)
    return try JSONDecoder().decode(TickerStats.self, from: data)
}

/// A clock whose sleeps return at once and are recorded, so backoff delays can be checked exactly.
final class RecordingClock: Clock, Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let state = Mutex<(now: Duration, sleeps: [Duration])>((.zero, []))

    var now: Instant { Instant(offset: state.withLock { $0.now }) }
    var minimumResolution: Duration { .zero }
    var sleeps: [Duration] { state.withLock { $0.sleeps } }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        state.withLock { state in
            state.sleeps.append(deadline.offset - state.now)
            state.now = max(state.now, deadline.offset)
        }
        await Task.yield()
    }
}

/// A loopback port that accepts TCP connections but never answers (a handshake that hangs).
final class SilentListener: Sendable {
    let port: Int
    private let descriptor: Int32

    init() {
        let descriptor = LoopbackSocket.make()
        port =
            LoopbackSocket.withAddress { address, length in
                bind(descriptor, address, length) == 0 && listen(descriptor, 8) == 0 && getsockname(descriptor, address, &length) == 0
            }.port
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }
}

/// Collects a session's states as they come.
final class StateLog: Sendable {
    private final class Entries: Sendable {
        let list = Mutex<[(WebSocketSessionState, ContinuousClock.Instant)]>([])
    }
    private let entries = Entries()
    private let task: Task<Void, Never>

    init(_ session: WebSocketSession) {
        let entries = self.entries
        task = Task {
            for await state in session.states { entries.list.withLock { $0.append((state, .now)) } }
        }
    }

    deinit { task.cancel() }

    var states: [WebSocketSessionState] { entries.list.withLock { $0.map(\.0) } }
    var timed: [(WebSocketSessionState, ContinuousClock.Instant)] { entries.list.withLock { $0 } }

    /// How many times the session reached `.connected`.
    var connections: Int { states.filter { $0 == .connected }.count }

    /// The reasons of the reconnects so far.
    var reconnectReasons: [NetworkError] {
        states.compactMap { if case .reconnecting(_, _, let reason) = $0 { reason } else { nil } }
    }
}
#endif  // WebSocket
