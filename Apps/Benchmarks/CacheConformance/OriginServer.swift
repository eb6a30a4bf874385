import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle

/// The origin as a bare HummingbirdCore server: Hummingbird's `Application` overwrites every
/// response's `Date` with its own clock, and the suite's tests set `Date` on purpose (in the past,
/// in the future, relative to `Expires`). It dispatches `/test/<uuid>[/<file>]` itself, whatever
/// the method (the router does not route extension methods such as `M-SEARCH`).
struct OriginServer: Service {
    let state: OriginState
    let logger: Logger
    let onRunning: @Sendable (Int) -> Void

    func run() async throws {
        let state = self.state
        let logger = self.logger
        let server = try HTTPServerBuilder.http1().buildServer(
            configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: nil),
            eventLoopGroup: MultiThreadedEventLoopGroup.singleton,
            logger: logger
        ) { (request, responseWriter: consuming ResponseWriter, _) in
            let segments = request.uri.path.split(separator: "/").map(String.init)
            let response: Response
            do {
                guard segments.count >= 2, segments[0] == "test" else { throw HTTPError(.notFound) }
                response = try await ConformanceOrigin.answer(request, uuid: segments[1], state: state)
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
