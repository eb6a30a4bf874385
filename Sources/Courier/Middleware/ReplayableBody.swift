import Foundation
import OpenAPIRuntime

/// Makes a request body safe to send more than once (retries, a replay after refreshing a token).
enum ReplayableBody {
    /// Bodies up to this size are buffered to be replayed; larger single-pass ones are sent once.
    static let limit = 16 * 1024 * 1024

    /// `body` itself when it can be iterated again, its bytes as a new body when it can only be
    /// read once and fits ``limit``; `replayable` is false for a larger or unsized single-pass body.
    static func make(_ body: HTTPBody?) async throws -> (body: HTTPBody?, replayable: Bool) {
        guard let body, body.iterationBehavior == .single else { return (body, true) }
        guard case .known(let length) = body.length, length <= limit else { return (body, false) }
        return (HTTPBody(try await Data(collecting: body, upTo: limit)), true)
    }
}
