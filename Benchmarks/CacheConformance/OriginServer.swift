import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle

/// The origin as a bare HummingbirdCore server: Hummingbird's `Application` overwrites every
/// response's `Date` with its own clock, and the suite's tests set `Date` on purpose (in the past,
/// in the future, relative to `Expires`).
struct OriginServer: Service {
    let responder: RouterResponder<BasicRequestContext>
    let logger: Logger
    let onRunning: @Sendable (Int) -> Void

    func run() async throws {
        let responder = self.responder
        let logger = self.logger
        let server = try HTTPServerBuilder.http1().buildServer(
            configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: nil),
            eventLoopGroup: MultiThreadedEventLoopGroup.singleton,
            logger: logger
        ) { (request, responseWriter: consuming ResponseWriter, channel) in
            let context = BasicRequestContext(source: .init(channel: channel, logger: logger))
            let response: Response
            do {
                response = try await responder.respond(to: request, context: context)
            } catch {
                response = Response(status: (error as? any HTTPResponseError)?.status ?? .internalServerError)
            }
            try await responseWriter.write(response: response.head, body: response.body)
        } onServerRunning: { channel in
            onRunning(channel.localAddress?.port ?? 0)
        }
        try await server.run()
    }
}
