import Hummingbird
import NIOCore

/// A request context that knows the connection its request came on.
protocol ConnectionRequestContext: RequestContext {
    /// The TCP connection.
    var channel: any Channel { get }
}

extension SandboxRequestContext: ConnectionRequestContext {}
extension TickerRequestContext: ConnectionRequestContext {}

/// Refuses a request whose `Host` is not one of the sandbox's names (``SandboxHostNames``) at the
/// port the connection came in on: 421 Misdirected Request with a short JSON error; a request
/// without exactly one `Host` 400, as RFC 9112 §3.2 asks.
///
/// A browser lets any web page send requests to 127.0.0.1, and through DNS rebinding read the
/// answers too; what it cannot change is the `Host` it sends, so a page cannot drive a local
/// `courier serve` (register accounts, read the ones it knows, flip fault switches).
struct HostCheckMiddleware<Context: ConnectionRequestContext>: RouterMiddleware {
    let names: SandboxHostNames

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // Hummingbird moves the first Host into `authority`; a second one stays among the fields.
        guard let authority = request.head.authority, !request.headers.contains(where: { $0.name.canonicalName == "host" }) else {
            return JSONResponse.make(Refusal(error: "bad_request", message: "a request needs exactly one Host header"), status: .badRequest)
        }
        // The port the client actually dialled: with port 0 the sandbox learns its own only when bound.
        guard names.allows(authority[...], port: context.channel.localAddress?.port) else {
            let message =
                "this sandbox answers only to \(names.names.sorted().joined(separator: ", ")) at its port "
                + "(more names: courier serve --host-name NAME); this request was for Host: \(authority)"
            return JSONResponse.make(Refusal(error: "misdirected_request", message: message), status: .misdirectedRequest)
        }
        return try await next(request, context)
    }

    /// The body of a refusal.
    struct Refusal: Encodable {
        var error: String
        var message: String
    }
}
