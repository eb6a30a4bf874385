import Foundation
import HTTPTypes
import OpenAPIRuntime
import Synchronization

/// A fake origin for middleware tests without sockets: answers each call with what the test says,
/// counts the calls that reached it, and can hold one until the test lets it go.
final class FakeOrigin: Sendable {
    static let url = URL(string: "https://api.example.com")!
    static let request = HTTPRequest(method: .get, scheme: "https", authority: "api.example.com", path: "/v1/items")

    private let state = Mutex((reached: 0, held: 0))

    /// Calls that reached the origin.
    var reached: Int { state.withLock { $0.reached } }
    /// Calls waiting inside the origin now.
    var held: Int { state.withLock { $0.held } }

    /// A `next` that answers `status` with `headers`, after `gate` opens when one is given.
    func answering(
        _ status: Int, headers: HTTPFields = [:], gate: AsyncStream<Void>? = nil
    ) -> @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?) {
        { _, _, _ in
            self.state.withLock { $0.reached += 1 }
            if let gate {
                self.state.withLock { $0.held += 1 }
                for await _ in gate { break }
                self.state.withLock { $0.held -= 1 }
            }
            return (HTTPResponse(status: .init(code: status), headerFields: headers), nil)
        }
    }

    /// A `next` that throws `error`.
    func failing(_ error: any Error) -> @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?) {
        { _, _, _ in
            self.state.withLock { $0.reached += 1 }
            throw error
        }
    }

    /// Waits (yielding) until `count` calls are held inside the origin.
    func untilHeld(_ count: Int) async {
        while held < count { await Task.yield() }
    }
}
