import Courier
import CourierSandbox
import Foundation
import Logging
import OpenAPIRuntime
import Synchronization
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
    let sandbox = try await SandboxServer.start()
    do {
        let result = try await body(sandbox)
        await sandbox.stop()
        return result
    } catch {
        await sandbox.stop()
        throw error
    }
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

    var pathSegments: [String] {
        segments ?? path.split(separator: "/").map(String.init)
    }
}

/// What `/echo` answers.
struct Echo: Decodable, Sendable {
    var method: String
    var rawPath: String
    var pathSegments: [String]
    var rawQuery: String?
    var query: [[String]]
    var headers: [String: String]
    var contentType: String?
    var bodyLength: Int
    var body: String?
    var form: [[String]]?
    var parts: [Part]?

    struct Part: Decodable, Sendable {
        var name: String
        var fileName: String?
        var contentType: String?
        var length: Int
        var text: String?
    }

    func queryValue(_ name: String) -> [String] { query.filter { $0[0] == name }.map { $0[1] } }
}

/// What `/probe/stats` answers.
struct ProbeStats: Decodable, Sendable, Equatable {
    var inFlight: Int
    var maxInFlight: Int
    var total: Int
    var disconnects: Int
}

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

/// A swift-log handler that keeps every rendered line in memory.
final class LogCapture: Sendable {
    private let lines = Mutex<[String]>([])

    var all: [String] { lines.withLock { $0 } }
    var text: String { all.joined(separator: "\n") }

    func logger(label: String = "test") -> Logger {
        var logger = Logger(label: label) { label in CapturingHandler(label: label, capture: self) }
        logger.logLevel = .trace
        return logger
    }

    func append(_ line: String) { lines.withLock { $0.append(line) } }

    struct CapturingHandler: LogHandler {
        let label: String
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
            let meta = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            capture.append("\(event.level) \(event.message) \(meta)")
        }
    }
}
