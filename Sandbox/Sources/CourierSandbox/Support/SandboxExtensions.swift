import Foundation
import Hummingbird
import Logging

/// A group of routes that needs set-up (a database, bundled data) before it can serve.
protocol SandboxRouteGroup: Sendable {
    func register(on router: Router<SandboxRequestContext>) async throws
}

/// The route groups beyond the built-in httpbin/probe/sample ones, in registration order.
enum SandboxExtensions {
    static func registered(options: SandboxServer.Options, logger: Logger, alan: AlanLedger) async -> [any SandboxRouteGroup] {
        [
            AccountsRoutes(dataDirectory: options.dataDirectory, logger: logger),
            HackerNewsRoutes(),
            AlanRoutes(ledger: alan),
            LLMRoutes(),
            SeoulRoutes(),
            CacheRoutes(),
        ]
    }
}
