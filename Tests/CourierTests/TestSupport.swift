import Courier
import CourierTesting
import CourierSandbox
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The transports every integration test runs against.
enum TransportKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case asyncHTTPClient
    case urlSession

    var testDescription: String { rawValue }

    func make() -> any ClientTransport {
        switch self {
        case .asyncHTTPClient: HTTPClientTransport.shared
        case .urlSession: URLSessionClientTransport(session: URLSession(configuration: .ephemeral))
        }
    }
}

/// Runs `body` against a fresh sandbox on an ephemeral loopback port.
func withSandbox<T>(_ body: (RunningSandbox) async throws -> T) async throws -> T {
    try await SandboxServer.withRunning(body)
}

/// A generic endpoint for tests: any path, method and task against a base URL.
struct TestEndpoint: Endpoint {
    var baseURL: URL
    var path: String
    var method: HTTPMethod = .get
    var task: HTTPTask = .requestPlain
    var headers: [String: String]? = nil
    var statusMapping: StatusMapping = .standard
    var timeout: Duration? = nil
    var secrets: [String] = []
    var segments: [String]? = nil
    var decoding: any ResponseDecoding = .json
    var traits: CallTraits = CallTraits()

    var responseDecoding: any ResponseDecoding { decoding }

    var pathSegments: [String] {
        segments ?? path.split(separator: "/").map(String.init)
    }
}

/// What `/echo` answers.
typealias Echo = EchoAnswer

/// Expects `operation` to throw a ``NetworkError`` and returns it.
func expectNetworkError<T>(_ operation: () async throws(NetworkError) -> T, sourceLocation: SourceLocation = #_sourceLocation) async -> NetworkError? {
    do {
        let value = try await operation()
        Issue.record("expected a NetworkError, got \(value)", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}


/// A middleware that changes nothing: makes a client take the streamed-body path.
struct PassThroughMiddleware: ClientMiddleware {
    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        try await next(request, body, baseURL)
    }
}
