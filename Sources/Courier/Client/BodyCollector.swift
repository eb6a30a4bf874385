package import Foundation
package import OpenAPIRuntime

/// Collects an `HTTPBody` into `Data` without per-chunk reallocation, refusing bodies over a limit.
package enum BodyCollector {
    /// Reads `body` fully. A declared length over `limit` fails before reading a byte; a body
    /// that grows past `limit` fails as soon as it does. Either way the body is released.
    package static func collect(_ body: HTTPBody, limit: Int) async throws -> Data {
        var data = Data()
        if case .known(let length) = body.length {
            if length > limit { throw NetworkError.responseTooLarge(limit: limit) }
            data.reserveCapacity(Int(length))
        }
        for try await chunk in body {
            if data.count + chunk.count > limit { throw NetworkError.responseTooLarge(limit: limit) }
            data.append(contentsOf: chunk)
        }
        // A stream ended by the caller's cancellation stops early without an error: not a body.
        try Task.checkCancellation()
        return data
    }
}
