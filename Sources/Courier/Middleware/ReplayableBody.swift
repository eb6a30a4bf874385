import Foundation
package import OpenAPIRuntime

/// Makes a request body safe to send more than once (retries, a replay after refreshing a token).
package enum ReplayableBody {
    /// The size limit the middlewares fall back to when a call has no context: the client's
    /// default (`CallLimits.defaultMaxResponseBytes`).
    package static let limit = CallLimits.defaultMaxResponseBytes

    /// `body` itself, and whether it can be sent again: a body that can be iterated again (bytes,
    /// a form, a file that is reopened) can; a one-shot stream (``HTTPTask/uploadStream(_:length:contentType:)``)
    /// is never buffered for a replay — a call with one is simply not sent twice.
    package static func make(_ body: HTTPBody?) async throws -> (body: HTTPBody?, replayable: Bool) {
        guard let body else { return (nil, true) }
        return (body, body.iterationBehavior == .multiple)
    }
}
