import CourierSandbox
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A `ClientTransport` that hands each request to an ``InMemorySandbox``: no socket, no
/// connection pool, no event loop — the client's middlewares, status mapping and decoding run
/// as over a socket, the sandbox's routes answer. The base URL's path is kept (a client bound to
/// `…/seoul` reaches `/seoul/…`); its host and port are not dialled.
public struct InMemorySandboxTransport: ClientTransport {
    let sandbox: InMemorySandbox

    public init(sandbox: InMemorySandbox) {
        self.sandbox = sandbox
    }

    public func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        let data: Data? = if let body { try await Data(collecting: body, upTo: 64 << 20) } else { nil }
        var basePath = baseURL.path(percentEncoded: true)
        if basePath.hasSuffix("/") { basePath.removeLast() }
        // The router framework names the request's authority `localhost`, one of the sandbox's names.
        let (head, bytes) = try await sandbox.respond(
            method: request.method, path: basePath + (request.path ?? "/"), headers: request.headerFields, body: data)
        return (head, bytes.isEmpty && request.method == .head ? nil : HTTPBody(bytes))
    }
}
