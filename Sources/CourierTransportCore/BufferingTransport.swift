package import Foundation
package import HTTPTypes
package import OpenAPIRuntime

/// A transport that can hand back a whole response body at once.
///
/// When a `NetworkClient` has no middleware (nothing needs the body as an `HTTPBody` stream),
/// it asks such a transport for the bytes directly and skips wrapping them in an `HTTPBody`
/// and collecting them again. The transport still honours ``CallContext``.
package protocol BufferingTransport: ClientTransport {
    /// Sends `request` and returns the head and the whole body.
    func sendBuffered(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL) async throws -> (HTTPResponse, Data)
}
