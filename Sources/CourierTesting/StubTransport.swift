import Courier
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `ClientTransport` for unit tests of your own code: answers from a table instead of the
/// network, and records what was sent.
///
/// ```swift
/// let stub = StubTransport()
/// stub.on(.get, "/api/v1/users/1", .json(#"{"id":1,"name":"홍길동"}"#))
/// stub.on(.get, "/api/v1/users/2", .status(404))
/// let client = NetworkClient(transport: stub)
/// ```
/// Integration tests should use a real server (CourierSandbox); this is for pure logic.
public final class StubTransport: ClientTransport, Sendable {
    /// A canned answer.
    public struct Answer: Sendable {
        /// Status code.
        public var status: Int
        /// Header fields.
        public var headers: HTTPFields
        /// Body bytes.
        public var body: Data
        /// A transport failure to throw instead of answering.
        public var failure: URLError.Code?

        /// A 200 JSON answer.
        public static func json(_ text: String, status: Int = 200) -> Answer {
            Answer(status: status, headers: [.contentType: "application/json"], body: Data(text.utf8), failure: nil)
        }
        /// An `Encodable` value as a JSON answer.
        public static func encoded(_ value: some Encodable, status: Int = 200) -> Answer {
            .json(String(decoding: (try? JSONEncoder().encode(value)) ?? Data("null".utf8), as: UTF8.self), status: status)
        }
        /// A status with an optional text body.
        public static func status(_ code: Int, body: String = "", headers: HTTPFields = [:]) -> Answer {
            Answer(status: code, headers: headers, body: Data(body.utf8), failure: nil)
        }
        /// A transport failure (e.g. `.notConnectedToInternet`).
        public static func fail(_ code: URLError.Code) -> Answer {
            Answer(status: 0, headers: [:], body: Data(), failure: code)
        }
    }

    /// A request the stub received.
    public struct Recorded: Sendable {
        /// The request head (path includes the query).
        public var request: HTTPRequest
        /// The request body.
        public var body: Data
    }

    private struct State {
        var answers: [String: Answer] = [:]
        var recorded: [Recorded] = []
    }

    private let state = Mutex(State())

    /// An empty stub: every request answers 404 until you add answers.
    public init() {}

    /// Answers `method path` (path without the query) with `answer`.
    public func on(_ method: HTTPRequest.Method, _ path: String, _ answer: Answer) {
        state.withLock { $0.answers["\(method.rawValue) \(path)"] = answer }
    }

    /// Everything sent so far, in order.
    public var requests: [Recorded] { state.withLock { $0.recorded } }

    public func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        var bytes = Data()
        if let body { bytes = try await Data(collecting: body, upTo: 64 * 1024 * 1024) }
        let path = String((request.path ?? "/").split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "/")
        let answer = state.withLock { state -> Answer? in
            state.recorded.append(Recorded(request: request, body: bytes))
            return state.answers["\(request.method.rawValue) \(path)"]
        }
        try Task.checkCancellation()
        guard let answer else { return (HTTPResponse(status: .notFound), nil) }
        if let failure = answer.failure { throw URLError(failure) }
        return (HTTPResponse(status: .init(code: answer.status), headerFields: answer.headers), HTTPBody(answer.body))
    }
}
