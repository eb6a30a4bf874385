package import Foundation
package import HTTPTypes
public import OpenAPIRuntime

/// What a transport does on its own, so that the client does not do it again.
public struct TransportCapabilities: OptionSet, Sendable {
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    /// It ends the call at ``CallContext/deadline`` itself (the client need not race it against a timer).
    public static let deadline = TransportCapabilities(rawValue: 1 << 0)
    /// It fails a streamed body silent for ``CallContext/idleTimeout`` itself (the client need
    /// not watch the body from a task of its own — one hand-over per network read instead of two).
    public static let idleTimeout = TransportCapabilities(rawValue: 1 << 1)
    /// It has a buffered path (``CallTransport/sendBuffered(_:body:baseURL:context:)``) worth
    /// taking: a client with no middleware (nothing needs the body as an `HTTPBody` stream) skips
    /// wrapping the bytes in an `HTTPBody` and collecting them again. Read only of Courier's own
    /// transports.
    package static let buffersWhole = TransportCapabilities(rawValue: 1 << 2)
}

/// A `ClientTransport` that says what it does on its own. A transport that is not one gets
/// everything done by the client.
public protocol CapableTransport: ClientTransport {
    /// What this transport does on its own.
    var capabilities: TransportCapabilities { get }
}

/// One of Courier's own transports (AsyncHTTPClient's, URLSession's): the call's context comes
/// as an argument. The client checks for it once, when it is made; any other `ClientTransport`
/// is sent to through swift-openapi-runtime's `send`, with the context in reach as
/// ``CallContext/current``.
package protocol CallTransport: CapableTransport {
    /// Sends `request` for the call `context` describes.
    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, context: CallContext) async throws -> (HTTPResponse, HTTPBody?)
    /// Sends `request` and returns the head and the whole body (taken when the transport's
    /// capabilities hold ``TransportCapabilities/buffersWhole``).
    func sendBuffered(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, context: CallContext) async throws -> (HTTPResponse, Data)
}

extension CallTransport {
    /// Sends and collects the whole body (for a transport without a buffered path of its own).
    package func sendBuffered(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, context: CallContext) async throws -> (HTTPResponse, Data) {
        let (head, answer) = try await send(request, body: body, baseURL: baseURL, context: context)
        guard let answer else { return (head, Data()) }
        return (head, try await Data(collecting: answer, upTo: context.maxResponseBytes ?? .max))
    }
}

/// A call middleware of Courier's own: the call's context comes as an argument (nil when the
/// middleware serves a call that is not a `NetworkClient`'s, an OpenAPI-generated client's say).
/// Its swift-openapi-runtime `intercept` passes ``CallContext/current``.
package protocol CallMiddleware: ClientMiddleware {
    /// Intercepts `request` of the call `context` describes.
    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String, context: CallContext?,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?)
}
