import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import NIOFoundationCompat

/// The sandbox's routes answered in this process, without a socket: Hummingbird's router test
/// framework (`app.test(.router)`) runs each request through the same router ``SandboxServer``
/// serves, so a client test can run in memory and over sockets with the same body.
///
/// ```swift
/// let sandbox = try await InMemorySandbox.start()
/// let (head, body) = try await sandbox.respond(method: .get, path: "/json", headers: [:], body: nil)
/// await sandbox.stop()
/// ```
///
/// Answers are whole (the router framework collects each body), so endless streams and
/// connection faults (drops, drips, resets) belong to the socket tests.
public final class InMemorySandbox: Sendable {
    private let client: any TestClientProtocol
    private let finish: AsyncStream<Void>.Continuation
    private let task: Task<Void, any Error>

    private init(client: any TestClientProtocol, finish: AsyncStream<Void>.Continuation, task: Task<Void, any Error>) {
        self.client = client
        self.finish = finish
        self.task = task
    }

    /// A sandbox with `options`' routes (its host and port are not used: nothing listens).
    public static func start(options: SandboxServer.Options = .init(), logger: Logger = Logger(label: "courier.sandbox")) async throws
        -> InMemorySandbox
    {
        var quiet = logger
        if quiet.logLevel < .warning { quiet.logLevel = .warning }
        let router = try await SandboxServer(options: options, logger: logger).makeRouter()
        let app = Application(router: router, logger: quiet)
        let (clients, handOut) = AsyncStream<any TestClientProtocol>.makeStream()
        let (finished, finish) = AsyncStream<Void>.makeStream()
        // The router framework lends its client for the length of a closure: the closure hands
        // it out and stays open until `stop()`.
        let task = Task {
            try await app.test(.router) { client in
                handOut.yield(client)
                handOut.finish()
                for await _ in finished {}
            }
        }
        for await client in clients { return InMemorySandbox(client: client, finish: finish, task: task) }
        try await task.value
        throw SandboxError.couldNotStart(host: "memory", port: 0)
    }

    /// The answer to one request: `path` with its query, as sent on a connection.
    public func respond(method: HTTPRequest.Method, path: String, headers: HTTPFields, body: Data?) async throws -> (HTTPResponse, Data) {
        let response = try await client.executeRequest(uri: path, method: method, headers: headers, body: body.map { ByteBuffer(data: $0) })
        return (response.head, Data(buffer: response.body))
    }

    /// Ends the router framework's run.
    public func stop() async {
        finish.finish()
        _ = await task.result
    }
}
