import Hummingbird
import NIOCore
import ServiceLifecycle

extension Request {
    /// Runs `body`, cancelling it as soon as the client closes its side of the connection, or
    /// the server starts shutting down.
    ///
    /// Hummingbird 2.28 does not cancel a handler, nor a response body writer, when its client
    /// goes away: a `Task.sleep` runs to the end, and a write only fails once the peer's reset has
    /// come back (the server allows half-closed connections, so the first write after the client's
    /// FIN still succeeds). `RequestBody.consumeWithCancellationOnInboundClose` watches the
    /// request's inbound stream instead and cancels `body` when it ends, within milliseconds.
    /// A graceful shutdown closes that inbound side too (as Hummingbird does when it cancels a
    /// connection), so a stream that would hang for minutes does not hold up ``RunningSandbox/stop()``.
    ///
    /// Watching consumes the connection's inbound stream, so Hummingbird closes the connection
    /// after this answer: routes that use this send `Connection: close`, so that no client puts
    /// the connection back in its pool.
    func untilClientLeaves<T: Sendable>(_ context: SandboxRequestContext, _ body: () async throws -> T) async throws -> T {
        let channel = context.channel
        return try await withGracefulShutdownHandler {
            try await self.body.consumeWithCancellationOnInboundClose { _ in try await body() }
        } onGracefulShutdown: {
            channel.close(mode: .input, promise: nil)
        }
    }
}
