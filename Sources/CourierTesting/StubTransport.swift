public import Courier
public import Foundation
public import HTTPTypes
public import OpenAPIRuntime
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `ClientTransport` for unit tests of your own code: answers from a table instead of the
/// network, and records what was sent.
///
/// ```swift
/// let stub = StubTransport()
/// try stub.on(SearchAPI.search("서울"), .json(#"{"items":[]}"#))   // matched as the client builds it
/// stub.on(.get, "/api/v1/users/2", .status(404))                   // any query
/// let client = NetworkClient(transport: stub)
/// ```
///
/// A request nothing matches fails loudly: it throws `URLError(.resourceUnavailable)` naming the
/// request and the stubs there are (so the client's error says what was missing), is kept in
/// ``unmatched``, and is passed to the `onUnmatched` handler (`{ Issue.record("\($0)") }` in a
/// Swift Testing test). Integration tests should use a real server (CourierSandbox); this is
/// for pure logic.
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

        /// An answer with exactly these status, header fields and body bytes (a `206` with its
        /// `Content-Range`, an answer with a `Content-Encoding`, …).
        public init(status: Int, headers: HTTPFields = [:], body: Data = Data()) {
            self.init(status: status, headers: headers, body: body, failure: nil)
        }

        private init(status: Int, headers: HTTPFields, body: Data, failure: URLError.Code?) {
            self.status = status
            self.headers = headers
            self.body = body
            self.failure = failure
        }

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
        var exact: [String: Answer] = [:]
        var answers: [String: Answer] = [:]
        var recorded: [Recorded] = []
        var unmatched: [Recorded] = []
    }

    private let state = Mutex(State())
    private let onUnmatched: @Sendable (String) -> Void

    /// An empty stub; `onUnmatched` hears about every request no stub matched (a description
    /// of it and of the stubs there are).
    public init(onUnmatched: @escaping @Sendable (String) -> Void = { _ in }) {
        self.onUnmatched = onUnmatched
    }

    /// Answers `endpoint` — its method, path and query exactly as a `NetworkClient` builds them
    /// (percent-encoded, query sorted) — with `answer`. Wins over a path-only stub.
    public func on(_ endpoint: some Endpoint, _ answer: Answer) throws(NetworkError) {
        let request = try endpoint.httpRequest()
        state.withLock { $0.exact["\(request.method.rawValue) \(request.path ?? "/")"] = answer }
    }

    /// Answers `method path` (a path as sent, percent-encoded, without the query; any query
    /// matches) with `answer`.
    public func on(_ method: HTTPRequest.Method, _ path: String, _ answer: Answer) {
        state.withLock { $0.answers["\(method.rawValue) \(path)"] = answer }
    }

    /// Everything sent so far, in order.
    public var requests: [Recorded] { state.withLock { $0.recorded } }

    /// The requests no stub matched, in order.
    public var unmatched: [Recorded] { state.withLock { $0.unmatched } }

    public func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        var bytes = Data()
        if let body { bytes = try await Data(collecting: body, upTo: 64 * 1024 * 1024) }
        let full = request.path ?? "/"
        let path = String(full.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "/")
        let (answer, known) = state.withLock { state -> (Answer?, [String]) in
            let recorded = Recorded(request: request, body: bytes)
            state.recorded.append(recorded)
            if let answer = state.exact["\(request.method.rawValue) \(full)"] ?? state.answers["\(request.method.rawValue) \(path)"] {
                return (answer, [])
            }
            state.unmatched.append(recorded)
            return (nil, (state.exact.keys.map { $0 } + state.answers.keys.map { $0 + " (any query)" }).sorted())
        }
        try Task.checkCancellation()
        guard let answer else {
            let message =
                "StubTransport: no stub for \(request.method.rawValue) \(full); stubs: \(known.isEmpty ? "none" : known.joined(separator: ", "))"
            onUnmatched(message)
            throw URLError(.resourceUnavailable, userInfo: [NSLocalizedDescriptionKey: message])
        }
        if let failure = answer.failure { throw URLError(failure) }
        return (HTTPResponse(status: .init(code: answer.status), headerFields: answer.headers), HTTPBody(answer.body))
    }
}
